import { setTimeout as sleep } from 'node:timers/promises'
import { createRandom } from '@weft/devnet'
import autocannon from 'autocannon'
import { type Child, type Message, startChild } from '../child.js'
import type { Dataset } from '../data.js'
import { RequestFailedError } from '../errors.js'
import { type Figure, figure, round } from '../figure.js'

/** How the ingest figures are measured. */
export interface IngestBenchOptions {
  /** The upstream: a weft node serving the bench's development store. */
  readonly upstream: string
  readonly dataset: Dataset
  /** Seconds each rate is measured over. */
  readonly seconds: number
  /** Connections reading pages from the follower under load. */
  readonly connections: number
}

interface FollowerStatus extends Message {
  readonly inserted: number
  readonly at: number
}

// The follower's first second (discovery, the first window's pages) is left out of every rate.
const warmupMs = 1000

async function startFollower(options: IngestBenchOptions): Promise<{ child: Child; url: string }> {
  const child = startChild('follower-process.js', [JSON.stringify({ upstream: options.upstream, network: options.dataset.network })])
  const { url } = await child.next<Message & { url: string }>('ready')
  return { child, url }
}

async function stopFollower(child: Child): Promise<void> {
  try {
    await child.ask({ type: 'close' }, 'closed')
    await child.exited
  } finally {
    child.kill()
  }
}

// Blocks the follower wrote per second while `during` ran (after the warm-up).
async function insertRate(child: Child, during: () => Promise<unknown>): Promise<{ rate: number; blocks: number; seconds: number }> {
  await sleep(warmupMs)
  const before = await child.ask<FollowerStatus>({ type: 'status' }, 'status')
  await during()
  const after = await child.ask<FollowerStatus>({ type: 'status' }, 'status')
  const seconds = (after.at - before.at) / 1000
  return { rate: (after.inserted - before.inserted) / seconds, blocks: after.inserted - before.inserted, seconds }
}

// GET block pages of the follower's lowest heights (stored within its first second), 100 blocks each.
async function readLoad(url: string, options: IngestBenchOptions, seconds: number): Promise<autocannon.Result> {
  const random = createRandom('weft-bench-follower-reads')
  let index = 0
  const paths = Array.from(
    { length: 10_000 },
    () => `/chain/0.0/${options.dataset.network}/chain/${random.int(20)}/block?limit=100&minheight=${random.int(20)}`,
  )
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: seconds,
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: paths[index++ % paths.length] ?? '/' }) }],
  })
  if (result.non2xx > 0 || result.errors > 0)
    throw new RequestFailedError(`follower reads: ${result.non2xx} non-2xx answers and ${result.errors} errors of ${result.requests.total}`)
  return result
}

/**
 * The two ingest figures. `ingest-backfill`: a fresh weft follower (`--upstream`, its own process)
 * copying the development store from a weft node over loopback, blocks written per second, against
 * the validated insertMany rate of the same blocks in the follower's process afterwards.
 * `ingest-under-read-load`: another fresh follower while `connections` clients read pages from it,
 * against the first one's idle rate; and the other way, the reads per second it answers while
 * copying against those it answers once its ingest is stopped.
 */
export async function ingestFigures(options: IngestBenchOptions): Promise<Figure[]> {
  const idle = await startFollower(options)
  let backfill: Awaited<ReturnType<typeof insertRate>>
  let floor: Message & { blocks: number; seconds: number }
  try {
    backfill = await insertRate(idle.child, () => sleep(options.seconds * 1000))
    await idle.child.ask({ type: 'stop-ingest' }, 'ingest-stopped')
    floor = await idle.child.ask({ type: 'insert-floor' }, 'insert-floor')
  } finally {
    await stopFollower(idle.child)
  }
  const loaded = await startFollower(options)
  let underLoad: Awaited<ReturnType<typeof insertRate>>
  let readsDuring: autocannon.Result | undefined
  let readsAfter: autocannon.Result
  try {
    underLoad = await insertRate(loaded.child, async () => {
      readsDuring = await readLoad(loaded.url, options, options.seconds)
    })
    await loaded.child.ask({ type: 'stop-ingest' }, 'ingest-stopped')
    readsAfter = await readLoad(loaded.url, options, Math.max(2, options.seconds / 2))
  } finally {
    await stopFollower(loaded.child)
  }
  const floorRate = floor.blocks / floor.seconds
  const readsPerSecond = (result: autocannon.Result | undefined) => (result === undefined ? 0 : round(result['2xx'] / result.duration, 1))
  return [
    figure({
      name: 'ingest-backfill',
      value: backfill.rate,
      floor: floorRate,
      target: 0.7,
      bounds: 'ratio',
      direction: '>=',
      unit: 'blocks/s',
      floorIs:
        'store.insertMany of the same blocks (calls of 1,000, parent first) into a fresh store, in the follower process after its copy',
      details: {
        blocks: backfill.blocks,
        seconds: round(backfill.seconds, 2),
        floorBlocks: floor.blocks,
        floorSeconds: round(floor.seconds, 2),
      },
    }),
    figure({
      name: 'ingest-under-read-load',
      value: underLoad.rate,
      floor: backfill.rate,
      target: null,
      bounds: 'ratio',
      direction: '>=',
      unit: 'blocks/s',
      floorIs: `the idle ingest-backfill rate; meanwhile ${options.connections} connections read 100-block pages from the follower`,
      details: {
        blocks: underLoad.blocks,
        seconds: round(underLoad.seconds, 2),
        connections: options.connections,
        readsPerSecondWhileCopying: readsPerSecond(readsDuring),
        readsPerSecondIngestStopped: readsPerSecond(readsAfter),
        readLatencyP99MsWhileCopying: readsDuring?.latency.p99 ?? 0,
      },
    }),
  ]
}
