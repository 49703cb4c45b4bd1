import { type Figure, figure, round } from '../figure.js'
import type { IngestShare } from './ingest-share.js'
import type { LoadRun } from './load.js'
import type { MemoryRounds, ProducerShare } from './rounds.js'
import type { SyncWriteRates } from './sync-writes.js'

const mean = (values: readonly number[]): number => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length)
const MiB = (bytes: number): number => round(bytes / 2 ** 20, 1)
const rps = (loads: readonly LoadRun[]): number => round(mean(loads.map((load) => load.rps)))
const failures = (loads: readonly LoadRun[]): number => loads.reduce((sum, load) => sum + load.errors + load.non2xx, 0)
const p99 = (loads: readonly LoadRun[]): number => Math.max(0, ...loads.map((load) => load.p99Ms))

/** The write-share figures: the producer with its read slots (and without, in details), and ingest when measured. */
export function shareFigures(
  slotted: ProducerShare,
  unslotted: ProducerShare | undefined,
  ingest: IngestShare | undefined,
  seconds: number,
): Figure[] {
  const producer = figure({
    name: 'producer-under-read-load',
    value: mean(slotted.loaded),
    floor: mean(slotted.idle),
    target: 0.5,
    bounds: 'ratio',
    direction: '>=',
    unit: 'blocks/s',
    floorIs: 'the same devnet producer in the same process with no reads, in windows alternating with the loaded ones',
    details: {
      windowSeconds: seconds,
      windows: slotted.loaded.length,
      loadedWindows: slotted.loaded.map((rate) => round(rate)).join(' '),
      idleWindows: slotted.idle.map((rate) => round(rate)).join(' '),
      readsPerSecond: rps(slotted.loads),
      readFailures: failures(slotted.loads),
      readP99Ms: p99(slotted.loads),
      ...(unslotted === undefined
        ? {}
        : {
            withoutSlotsRatio: round(mean(unslotted.loaded) / mean(unslotted.idle), 3),
            withoutSlotsLoadedBlocksPerSecond: round(mean(unslotted.loaded)),
            withoutSlotsIdleBlocksPerSecond: round(mean(unslotted.idle)),
            withoutSlotsReadsPerSecond: rps(unslotted.loads),
          }),
    },
  })
  if (ingest === undefined) return [producer]
  const follower = figure({
    name: 'ingest-under-read-load',
    value: mean(ingest.loaded),
    floor: mean(ingest.idle),
    target: 0.5,
    bounds: 'ratio',
    direction: '>=',
    unit: 'blocks/s',
    floorIs: 'the same follower copying with no reads, in windows alternating with the loaded ones',
    details: {
      upstreamBlocks: ingest.upstreamBlocks,
      windows: ingest.loaded.length,
      loadedWindows: ingest.loaded.map((rate) => round(rate)).join(' '),
      idleWindows: ingest.idle.map((rate) => round(rate)).join(' '),
      copyEndedEarly: String(ingest.copyEnded),
      readsPerSecond: rps(ingest.loads),
      readFailures: failures(ingest.loads),
      readP99Ms: p99(ingest.loads),
    },
  })
  return [producer, follower]
}

/**
 * The memory figures: RSS after the rounds of reads and stalled clients against the start, the last
 * round against the first; and, reported without a target, the same with blocks written meanwhile.
 */
export function memoryFigures(memory: MemoryRounds, writing: MemoryRounds): Figure[] {
  return [
    figure({
      name: 'rss-after-load-rounds',
      value: MiB(Math.max(...memory.settled)),
      floor: MiB(memory.start),
      target: 1.2,
      bounds: 'ratio',
      direction: '<=',
      unit: 'MiB',
      floorIs: 'RSS after a warm-up round, idle: the start of the rounds (value: the highest RSS after a round)',
      details: {
        rounds: memory.settled.length,
        freshMiB: MiB(memory.fresh),
        settledMiB: memory.settled.map(MiB).join(' '),
        collectedMiB: memory.collected.map(MiB).join(' '),
        peakMiB: memory.peak.map(MiB).join(' '),
        heapMiB: memory.heap.map(MiB).join(' '),
        readsPerSecond: rps(memory.loads),
        readFailures: failures(memory.loads),
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
      floorIs: 'RSS after the first round (value: after the last)',
      details: {
        firstCollectedMiB: MiB(memory.collected[0] ?? 0),
        lastCollectedMiB: MiB(memory.collected[memory.collected.length - 1] ?? 0),
      },
    }),
    figure({
      name: 'rss-with-writes',
      value: MiB(writing.settled[writing.settled.length - 1] ?? 0),
      floor: MiB(writing.start),
      target: null,
      bounds: 'ratio',
      direction: '<=',
      unit: 'MiB',
      floorIs: 'RSS after a warm-up round, idle, before blocks are written (value: after the last round)',
      details: {
        rounds: writing.settled.length,
        settledMiB: writing.settled.map(MiB).join(' '),
        heapMiB: writing.heap.map(MiB).join(' '),
        readFailures: failures(writing.loads),
      },
    }),
  ]
}

/** The cost of --sync-writes: one-block inserts with fsync against without (bulk in details). */
export function syncFigure(sync: SyncWriteRates): Figure {
  return figure({
    name: 'sync-writes-inserts',
    value: sync.single.synced,
    floor: sync.single.plain,
    target: null,
    bounds: 'ratio',
    direction: '>=',
    unit: 'blocks/s',
    floorIs: 'the same validated one-block inserts (the producer writes so) without fsync',
    details: {
      singleBlocks: sync.singleBlocks,
      bulkBlocks: sync.bulkBlocks,
      bulkSyncedBlocksPerSecond: round(sync.bulk.synced),
      bulkPlainBlocksPerSecond: round(sync.bulk.plain),
      bulkRatio: round(sync.bulk.synced / sync.bulk.plain, 3),
    },
  })
}
