import { quantile, round } from '../figure.js'
import type { StoreAtRest } from './analyse.js'
import type { ScaleStore } from './dataset.js'
import type { Resident } from './memory.js'
import { type QueryKind, queryKinds, type Reads } from './serving.js'
import type { StreamsAtScale } from './streams.js'
import type { SnapshotFigure, SyncFigure } from './transfer.js'
import { hashingAndWriting, type WritingFloor } from './write-floor.js'

/** One store's part of the results. */
export interface ScaleSide {
  readonly store: ScaleStore
  readonly atRest: StoreAtRest
  readonly serving: Record<QueryKind, Reads>
  /** Resident memory of the serving process after the queries. */
  readonly servingMemory: Resident
}

// A figure of the build's LevelDB counts; a store built before they were recorded has none.
const engineFigure = (side: ScaleSide, format: (engine: NonNullable<ScaleSide['store']['build']['engine']>) => string): string =>
  side.store.build.engine === undefined ? 'not recorded' : format(side.store.build.engine)
/** Mainnet's blocks at the end of 2026, all twenty chains, orphans aside. */
const MAINNET_BLOCKS = 140_000_000
/** chainweb-data's fill: 91 hours for 75 million blocks (issue 34). */
const CHAINWEB_DATA_RATE = 75_000_000 / (91 * 3600)
const mb = (bytes: number): string => `${round(bytes / 2 ** 20, 1)} MiB`
const count = (n: number): string => Math.round(n).toLocaleString('en-US')

const environmentText = (environment: Readonly<Record<string, string>>): string =>
  Object.entries(environment)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ')

/** How blocks move between Wefts: a follower's copy of the large store and a snapshot of the small one. */
export interface Transfers {
  readonly sync: SyncFigure
  /** The same sync with the deploy files' malloc settings, when they have any. */
  readonly asDeployed: { readonly environment: Readonly<Record<string, string>>; readonly sync: SyncFigure } | undefined
  readonly snapshot: SnapshotFigure
}

/** The transfer figures as a Markdown table, each against the validated insert floor of the same run. */
export function formatTransfers({ sync, asDeployed, snapshot }: Transfers): string {
  const syncRow = (figure: SyncFigure, how: string): string[] => [
    `Weft-to-Weft sync, fresh follower of the large store, ${how} (${count(figure.blocks)} blocks in ${figure.seconds} s; its own memory ${mb(figure.ownMemory.peak)} at most, ${mb(figure.ownMemory.mean)} on average)`,
    count(figure.rate),
    count(figure.floor),
    String(figure.ratio),
    '>= 0.7',
  ]
  const deployed = asDeployed === undefined ? [] : [syncRow(asDeployed.sync, `as deployed: ${environmentText(asDeployed.environment)}`)]
  return markdownTable([
    ['transfer', 'blocks/s', 'validated insert floor', 'ratio', 'target'],
    syncRow(sync, "glibc's malloc defaults"),
    ...deployed,
    [
      `snapshot export (${count(snapshot.blocks)} blocks)`,
      count(snapshot.exportPerSecond),
      count(sync.floor),
      String(round(snapshot.exportPerSecond / sync.floor, 2)),
      '',
    ],
    [
      `snapshot import, validated (${count(snapshot.fileBytesPerBlock)} file bytes per block)`,
      count(snapshot.importPerSecond),
      count(sync.floor),
      String(round(snapshot.importPerSecond / sync.floor, 2)),
      '>= 1',
    ],
    [
      `index catch-up of the imported store written without its index (${count(snapshot.catchUp.blocks)} blocks; ${count(snapshot.catchUp.cpuMicrosPerBlock)} µs of CPU a block)`,
      count(snapshot.catchUp.perSecond),
      count(sync.floor),
      String(round(snapshot.catchUp.perSecond / sync.floor, 2)),
      '',
    ],
  ])
}

/**
 * The scale figures as a Markdown table: the small store, the large one, and their ratio where one
 * is bounded (the fill also against writing alone); then the event streams.
 */
export function formatScaleReport(
  sides: readonly ScaleSide[],
  writing: WritingFloor,
  streams: StreamsAtScale | undefined,
  coldPageCache: boolean,
): string {
  const [small, large] = sides as [ScaleSide, ScaleSide]
  const rows: string[][] = [
    ['figure', `${count(small.atRest.blocks)} blocks`, `${count(large.atRest.blocks)} blocks`, 'large / small', 'target'],
  ]
  const fill = (side: ScaleSide): number => side.store.build.blocks / side.store.build.insertSeconds
  // A row of one figure on each side, with no ratio.
  const perSide = (figure: string, value: (side: ScaleSide) => string, target = ''): void =>
    void rows.push([figure, value(small), value(large), '', target])
  perSide('fill rate (validated inserts, blocks/s)', (side) => count(fill(side)))
  // Issue 37's projection: mainnet's blocks at the measured rate, beside chainweb-data's fill (about
  // 228 blocks/s: 91 hours for 75,000,000 blocks, so 170 hours for mainnet's 140,000,000).
  perSide(
    `mainnet (${count(MAINNET_BLOCKS)} blocks) at this fill rate; chainweb-data: ${round(MAINNET_BLOCKS / CHAINWEB_DATA_RATE / 3600)} h`,
    (side) => `${round(MAINNET_BLOCKS / fill(side) / 3600, 1)} h`,
  )
  perSide('fill rate / hashing alone on all cores', (side) => String(round(fill(side) / side.store.build.hashingFloor, 2)), '>= 0.8')
  perSide(
    `writing alone (${count(writing.blocks)} blocks, ${writing.entriesPerBlock} entries each, the index's included, keyed and batched as a fill's, nothing validated): blocks/s; CPU per block; write amplification`,
    () => `${count(writing.perSecond)}; ${writing.cpuMicrosPerBlock} µs; ${writing.writeAmplification}`,
  )
  perSide(
    'fill rate / hashing and writing alone on the same cores',
    (side) => String(round(fill(side) / hashingAndWriting(side.store.build.hashingFloor, writing), 2)),
    '>= 0.7',
  )
  // Issue 37: the share of the fill's CPU that its threads spend stopped for garbage collection.
  perSide(
    "garbage collection: every isolate's pauses and marking steps (--trace-gc) / the fill process's CPU, mining included",
    (side) => {
      const { gc, engine } = side.store.build
      if (gc === undefined || engine === undefined) return 'not recorded'
      return `${round((gc.pauseSeconds / engine.cpuSeconds) * 100, 1)}% (${round(gc.pauseSeconds, 1)} of ${round(engine.cpuSeconds, 1)} s; ${count(gc.collections)} collections)`
    },
    '< 10%',
  )
  perSide('LevelDB wrote / its tables hold at the end (write amplification)', (side) =>
    engineFigure(side, (e) => `${round(e.writtenMiB / e.tableMiB, 1)} (${count(e.writtenMiB)} / ${count(e.tableMiB)} MiB)`),
  )
  perSide('per block inserted: CPU of the fill, every thread, mining left out / compaction time (µs)', (side) =>
    engineFigure(side, (e) => {
      const { blocks, mineSeconds } = side.store.build
      return `${count(((e.cpuSeconds - mineSeconds) / blocks) * 1e6)} / ${count((e.compactionSeconds / blocks) * 1e6)}`
    }),
  )
  perSide('table files on levels 0-6', (side) => side.atRest.filesByLevel.join(' '))
  perSide('disk bytes per block', (side) => count(side.atRest.diskBytes / side.atRest.blocks))
  perSide('index bytes per block', (side) => count(side.atRest.indexBytes / side.atRest.blocks))
  perSide(
    "transaction index: transactions / events held; its bytes (all five kinds) per transaction; the event entries' bytes per event",
    (side) => {
      const { bytes, eventBytes, transactions, events } = side.atRest.txIndex
      return `${count(transactions)} / ${count(events)}; ${count(bytes / transactions)}; ${count(eventBytes / events)}`
    },
  )
  perSide('store open', (side) => `${round(side.atRest.openMs)} ms`, '< 5 s')
  const fillMemory = (build: ScaleSide['store']['build']): string =>
    `${mb(build.rssPeak)} / ${mb(build.rssSteady)} (own ${mb(build.anonPeak)} / ${mb(build.anonSteady)})`
  const serveMemory = (memory: Resident): string => `${mb(memory.rss)} (own ${mb(memory.anon)}, mapped files ${mb(memory.file)})`
  const asDeployed = small.store.build.environment
  perSide(
    `RSS while filling, peak / steady${
      asDeployed === undefined
        ? ''
        : ` (as deployed: ${Object.entries(asDeployed)
            .map(([name, value]) => `${name}=${value}`)
            .join(' ')})`
    }`,
    (side) => fillMemory(side.store.build),
    '< 300 MB (286.1 MiB)',
  )
  perSide('RSS serving', (side) => serveMemory(side.servingMemory), '< 300 MB (286.1 MiB)')
  for (const [what, reads] of [
    ['', (side: ScaleSide, kind: QueryKind) => side.serving[kind]],
    [', read again', (side: ScaleSide, kind: QueryKind) => side.serving[kind].again],
  ] as const) {
    for (const kind of queryKinds) {
      const bounded = kind === 'page-tip' || kind === 'page-deep' || kind === 'branch' || kind === 'tx-lookup' || kind === 'events-page'
      // Issue 37: a deep page read first from a cold page cache may cost the disk's reads (<= 1.5).
      const cold = what === '' && coldPageCache
      const target = !bounded ? '' : kind === 'page-deep' && cold ? '<= 1.5' : '<= 1.3'
      const [before, after] = [reads(small, kind), reads(large, kind)]
      rows.push([
        `${kind}${what}${cold ? ' (from a cold page cache)' : ''} p50 / p99 (ms)`,
        `${round(before.p50)} / ${round(before.p99)}`,
        `${round(after.p50)} / ${round(after.p99)}`,
        String(round(after.p50 / before.p50, 2)),
        target,
      ])
    }
  }
  const table = markdownTable(rows)
  if (streams === undefined) return table
  return `${table}\n\n${markdownTable([
    ['event streams', 'weft', 'bare fan-out floor', 'weft / floor', 'target'],
    [
      `p99 delivery, ${count(streams.subscribers)} subscribers, ${round(streams.weft.blocksPerSecond, 1)} blocks/s (ms)`,
      String(round(streams.weftP99)),
      String(round(streams.floorP99)),
      String(round(streams.weftP99 / streams.floorP99, 2)),
      '<= 1',
    ],
    [
      "announcements the node wrote to every socket within 100 ms (the node's /metrics; the rest took longer)",
      streams.weft.writtenToAll === undefined
        ? ''
        : `${count(streams.weft.writtenToAll.within100ms)} of ${count(streams.weft.writtenToAll.announcements)}`,
      '',
      '',
      '',
    ],
    [
      'insert call until the frame is written (weft: to the first step, 1,024 sockets; floor: to every socket), p50 / p99 (ms)',
      `${round(quantile(streams.weft.handedOver, 0.5), 1)} / ${round(quantile(streams.weft.handedOver, 0.99), 1)}`,
      `${round(quantile(streams.floor.handedOver, 0.5), 1)} / ${round(quantile(streams.floor.handedOver, 0.99), 1)}`,
      '',
      '',
    ],
    [
      "the node's event-loop delay meanwhile, p99 / max (ms)",
      `${round(streams.weft.loopDelay.p99, 1)} / ${round(streams.weft.loopDelay.max, 1)}`,
      `${round(streams.floor.loopDelay.p99, 1)} / ${round(streams.floor.loopDelay.max, 1)}`,
      '',
      '',
    ],
    [
      'memory per subscriber (bytes)',
      count(streams.weftBytesPerSubscriber),
      count(streams.floorBytesPerSubscriber),
      String(round(streams.weftBytesPerSubscriber / streams.floorBytesPerSubscriber, 2)),
      '',
    ],
    [
      'subscribers connected / blocks some missed',
      `${streams.weft.connected} / ${streams.weft.incomplete}`,
      `${streams.floor.connected} / ${streams.floor.incomplete}`,
      '',
      '',
    ],
    [
      `${count(streams.weftBurst.blocks)} blocks inserted at once: until every subscriber has them all (ms)`,
      String(round(streams.weftBurst.allDelivered)),
      String(round(streams.floorBurst.allDelivered)),
      String(round(streams.weftBurst.allDelivered / streams.floorBurst.allDelivered, 2)),
      '',
    ],
  ])}`
}

function markdownTable(rows: readonly string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)))
  const line = (row: readonly string[]): string => `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`
  return [line(rows[0]!), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n')
}
