import { setTimeout as sleep } from 'node:timers/promises'
import { createRandom } from '@weft/devnet'
import autocannon from 'autocannon'
import type { Dataset } from '../data.js'
import { BodyMismatchError, RequestFailedError } from '../errors.js'
import { type Figure, figure, round } from '../figure.js'
import { fetchBytes } from '../http-client.js'

/** Settings of the block-page load test. */
export interface BlockPagesOptions {
  readonly dataset: Dataset
  /** Height of each chain's best head. */
  readonly heads: ReadonlyMap<number, number>
  /** Measured seconds per server, split into bursts. */
  readonly seconds: number
  /** Bursts per server; they alternate in the order W F F W, so both see the same drift. */
  readonly bursts: number
  readonly warmupSeconds: number
  readonly connections: number
  readonly limit: number
  /** Requests whose bodies are compared byte for byte between the two servers. */
  readonly sample: number
}

/** What the load test measured of one server. */
export interface LoadResult {
  readonly rps: number
  readonly seconds: number
  readonly p50: number
  readonly p99: number
  readonly requests: number
  readonly bytesPerSecond: number
  /** Requests per second of each burst, in the order they ran. */
  readonly burstRps: number[]
}

/**
 * The seeded request list, the same for both servers: a random chain, then a random height low
 * enough that the page is full (`limit` blocks), so that every request asks for the same work.
 */
export function pagePaths(options: Pick<BlockPagesOptions, 'dataset' | 'heads' | 'limit'>, count: number): string[] {
  const random = createRandom('weft-bench-block-pages')
  const chains = [...options.heads.keys()]
  const paths: string[] = []
  for (let index = 0; index < count; index += 1) {
    const chain = random.pick(chains)
    const top = Math.max(0, (options.heads.get(chain) ?? 0) - options.limit)
    paths.push(`/chain/0.0/${options.dataset.network}/chain/${chain}/block?limit=${options.limit}&minheight=${random.int(top + 1)}`)
  }
  return paths
}

// Requests far enough apart that no two bursts of one server (a few hundred requests a second)
// ask for the same pages; the two bursts of a W F or F W pair ask for the same ones.
const PAIR_STRIDE = 10_000
// autocannon stops mid-request: the server finishes those before the next burst begins.
const DRAIN_MS = 300

/**
 * Loads the weft server and the floor, both served by one node process over one opened store (so
 * they share its caches, its heap and its process's share of the machine): the bodies of a sample
 * are compared first, each server is warmed up, then short bursts alternate W F F W W F F W ...:
 * drift in the machine's speed, which over tens of seconds moved throughput by ±15% here, hits
 * both alike. The two bursts of a pair ask for the same pages.
 */
export async function measurePages(
  urls: { weft: string; floor: string },
  paths: readonly string[],
  options: BlockPagesOptions,
): Promise<{ weft: LoadResult; floor: LoadResult }> {
  for (const path of paths.slice(0, options.sample)) {
    const [weft, floor] = await Promise.all([fetchBytes(urls.weft + path), fetchBytes(urls.floor + path)])
    if (weft.status !== 200 || floor.status !== 200)
      throw new RequestFailedError(`${path} answered ${weft.status} (weft) and ${floor.status} (floor)`)
    if (!weft.body.equals(floor.body)) throw new BodyMismatchError(`weft and the floor answered different bodies for ${path}`)
  }
  // The warm-up takes its requests from the far end of the list, which no measured burst reaches.
  const warmupFrom = paths.length - PAIR_STRIDE
  for (const kind of ['weft', 'floor'] as const) await burst(urls[kind], paths, options, options.warmupSeconds, warmupFrom)
  const burstSeconds = options.seconds / options.bursts
  const results: Record<'weft' | 'floor', autocannon.Result[]> = { weft: [], floor: [] }
  for (let pair = 0; pair < options.bursts; pair += 1) {
    const order = pair % 2 === 0 ? (['weft', 'floor'] as const) : (['floor', 'weft'] as const)
    for (const kind of order) results[kind].push(await burst(urls[kind], paths, options, burstSeconds, pair * PAIR_STRIDE))
  }
  return { weft: combine(results.weft), floor: combine(results.floor) }
}

async function burst(
  url: string,
  paths: readonly string[],
  options: BlockPagesOptions,
  seconds: number,
  from: number,
): Promise<autocannon.Result> {
  let index = from
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: seconds,
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: paths[index++ % paths.length] ?? '/' }) }],
  })
  await sleep(DRAIN_MS)
  if (result.non2xx > 0 || result.errors > 0)
    throw new RequestFailedError(`block pages: ${result.non2xx} non-2xx answers and ${result.errors} errors of ${result.requests.total}`)
  return result
}

// Bursts of one server as one run: requests and seconds add up; latencies are the worst burst's.
function combine(bursts: readonly autocannon.Result[]): LoadResult {
  const seconds = bursts.reduce((sum, b) => sum + b.duration, 0)
  const requests = bursts.reduce((sum, b) => sum + b['2xx'], 0)
  return {
    rps: requests / seconds,
    seconds,
    p50: Math.max(...bursts.map((b) => b.latency.p50)),
    p99: Math.max(...bursts.map((b) => b.latency.p99)),
    requests,
    bytesPerSecond: bursts.reduce((sum, b) => sum + b.throughput.average * b.duration, 0) / seconds,
    burstRps: bursts.map((b) => round(b['2xx'] / b.duration, 1)),
  }
}

/** Figure 1: GET block pages per second under concurrent load, weft against the bare floor. */
export function blockPagesFigure(options: BlockPagesOptions, weft: LoadResult, floor: LoadResult): Figure {
  return figure({
    name: 'block-pages',
    value: weft.rps,
    floor: floor.rps,
    target: 0.85,
    bounds: 'ratio',
    direction: '>=',
    unit: 'requests/s',
    floorIs: 'bare node:http server in the same process on the same opened store: store.range + readRangeBlocks, same page bytes',
    details: {
      connections: options.connections,
      bursts: `${options.bursts} per server, alternating W F F W`,
      weftSeconds: round(weft.seconds, 1),
      floorSeconds: round(floor.seconds, 1),
      limit: options.limit,
      weftRequests: weft.requests,
      floorRequests: floor.requests,
      weftLatencyP50Ms: weft.p50,
      weftLatencyP99Ms: weft.p99,
      floorLatencyP50Ms: floor.p50,
      floorLatencyP99Ms: floor.p99,
      weftMiBPerSecond: round(weft.bytesPerSecond / 2 ** 20),
      weftBurstRps: weft.burstRps.join(' '),
      floorBurstRps: floor.burstRps.join(' '),
      identicalBodiesChecked: options.sample,
    },
  })
}
