// `pnpm bench:reliability`: the figures of issue 19 (hostile and heavy traffic): the devnet producer's
// share under 100 connections of reads, with and without the read slots; the node's memory over ten
// rounds of load and stalled clients; and the cost of --sync-writes. Writes bench-reliability-results.json.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Figure, figure, round } from '../figure.js'
import { describeMachine } from '../machine.js'
import { repoRoot } from '../paths.js'
import { formatTable } from '../report.js'
import type { ReliabilityNodeConfig } from './node-process.js'
import { memoryRounds, producerShare } from './rounds.js'
import { syncWriteRates } from './sync-writes.js'

const seconds = Number(process.env.WEFT_BENCH_SECONDS || 5)
const mean = (values: readonly number[]): number => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length)
const MiB = (bytes: number): number => round(bytes / 2 ** 20, 1)
const log = (text: string): void => void process.stderr.write(`bench: ${text}\n`)

async function inFolder<T>(use: (path: string) => Promise<T>): Promise<T> {
  const folder = mkdtempSync(join(tmpdir(), 'weft-bench-reliability-'))
  try {
    return await use(folder)
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

async function main(): Promise<void> {
  const started = performance.now()
  const machine = describeMachine()
  log(`${machine.cpu}, ${machine.cores} cores, load average ${machine.loadAverage}`)
  const node = (path: string, concurrentReads: number): ReliabilityNodeConfig => ({ path, prefill: 4000, blockDelay: 0.002, concurrentReads })
  const shareOptions = { pairs: 3, seconds, connections: 100 }
  log('the producer idle and under 100 connections of reads, with the read slots (8)')
  const slotted = await inFolder((path) => producerShare(node(path, 8), shareOptions))
  log('the same without them (a slot per request)')
  const unslotted = await inFolder((path) => producerShare(node(path, 100_000), shareOptions))
  log('memory over ten rounds of load and stalled clients')
  const memory = await inFolder((path) =>
    memoryRounds({ path, prefill: 4000, concurrentReads: 8 }, { rounds: 10, seconds, settleSeconds: 3, connections: 100, feedBlocks: 300 }),
  )
  log('inserts with and without --sync-writes')
  const sync = await syncWriteRates({ singleBlocks: 400, bulkBlocks: 4000, rounds: 2 })
  const rps = (share: typeof slotted): number => round(mean(share.loads.map((load) => load.rps)))
  const figures: Figure[] = [
    figure({
      name: 'producer-under-read-load',
      value: mean(slotted.loaded),
      floor: mean(slotted.idle),
      target: 0.5,
      bounds: 'ratio',
      direction: '>=',
      unit: 'blocks/s',
      floorIs: 'the same producer in the same process with no reads, in windows alternating with the loaded ones',
      details: {
        windowSeconds: seconds,
        readsPerSecond: rps(slotted),
        readErrors: slotted.loads.reduce((sum, load) => sum + load.errors + load.non2xx, 0),
        readP99Ms: Math.max(...slotted.loads.map((load) => load.p99Ms)),
        withoutSlotsRatio: round(mean(unslotted.loaded) / mean(unslotted.idle), 3),
        withoutSlotsLoadedBlocksPerSecond: round(mean(unslotted.loaded)),
        withoutSlotsIdleBlocksPerSecond: round(mean(unslotted.idle)),
        withoutSlotsReadsPerSecond: rps(unslotted),
      },
    }),
    figure({
      name: 'rss-after-load-rounds',
      value: MiB(Math.max(...memory.settled)),
      floor: MiB(memory.start),
      target: 1.2,
      bounds: 'ratio',
      direction: '<=',
      unit: 'MiB',
      floorIs: 'RSS after a warm-up round, idle: the start of the rounds',
      details: {
        rounds: memory.settled.length,
        freshMiB: MiB(memory.fresh),
        settledMiB: memory.settled.map(MiB).join(' '),
        collectedMiB: memory.collected.map(MiB).join(' '),
        peakMiB: memory.peak.map(MiB).join(' '),
        readsPerSecond: round(mean(memory.loads.map((load) => load.rps))),
      },
    }),
    figure({
      name: 'rss-growth-over-rounds',
      value: MiB(memory.settled[memory.settled.length - 1] ?? 0),
      floor: MiB(memory.settled[0] ?? 0),
      target: 1.1,
      bounds: 'ratio',
      direction: '<=',
      unit: 'MiB',
      floorIs: 'RSS after the first round',
      details: { lastCollectedMiB: MiB(memory.collected[memory.collected.length - 1] ?? 0), firstCollectedMiB: MiB(memory.collected[0] ?? 0) },
    }),
    figure({
      name: 'sync-writes-inserts',
      value: sync.single.synced,
      floor: sync.single.plain,
      target: null,
      bounds: 'ratio',
      direction: '>=',
      unit: 'blocks/s',
      floorIs: 'the same one-block inserts (the producer writes so) without fsync',
      details: {
        singleBlocks: sync.singleBlocks,
        bulkBlocks: sync.bulkBlocks,
        bulkSyncedBlocksPerSecond: round(sync.bulk.synced),
        bulkPlainBlocksPerSecond: round(sync.bulk.plain),
        bulkRatio: round(sync.bulk.synced / sync.bulk.plain, 3),
      },
    }),
  ]
  const path = join(repoRoot, 'bench-reliability-results.json')
  writeFileSync(path, `${JSON.stringify(figures, null, 2)}\n`)
  process.stdout.write(`${formatTable(figures, machine, (performance.now() - started) / 1000)}\n`)
  for (const f of figures) process.stdout.write(`${f.name}: ${JSON.stringify(f.details)}\n`)
  process.stdout.write(`wrote ${path}\n`)
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exitCode = 1
})
