// The engine bench's figures: one row per run (rounds interleaved, so every engine met the same
// machine), then each engine's CPU per block against classic-level's of the same round, and what
// the issue's rule says of it.
import { quantile, round } from '../figure.js'
import type { EngineRun } from './engine-process.js'
import type { EngineName } from './open-engine.js'

/** One run's figures. */
export interface EngineFigures {
  readonly round: number
  readonly engine: EngineName
  readonly blocksPerSecond: number
  /** CPU of every thread per block, µs: until the last batch was written, and until the engine had closed. */
  readonly writeCpuMicrosPerBlock: number
  readonly closedCpuMicrosPerBlock: number
  /** `/proc/self/io` write_bytes against the bytes the folder takes on disk at the end. */
  readonly writeAmplification: number
  /** The engine's own: table bytes written against table bytes held (undefined where it keeps no account). */
  readonly tableWriteAmplification: number | undefined
  readonly diskBytesPerBlock: number
  readonly pageCache: EngineRun['pageCache']
  /** A deep page of 100 records, ms: first read (p50, p99) and read again at once. */
  readonly firstRead: { readonly p50: number; readonly p99: number }
  readonly againRead: { readonly p50: number; readonly p99: number }
  readonly reopenMs: number
  readonly maxRssMiB: number
  /** The machine's load average (one minute) when the run ended: the machine is shared. */
  readonly loadAverage: number
}

/** The issue's rule: another engine is worth switching to at this many times less CPU per block. */
export const switchFactor = 1.5

/** The figures of one engine run. */
export function engineFigures(roundNumber: number, run: EngineRun, loadAverage: number): EngineFigures {
  const percentiles = (values: readonly number[]) => ({ p50: round(quantile(values, 0.5)), p99: round(quantile(values, 0.99)) })
  return {
    round: roundNumber,
    engine: run.engine,
    blocksPerSecond: Math.round(run.blocks / run.writeSeconds),
    writeCpuMicrosPerBlock: round(run.writeCpuMicros / run.blocks, 1),
    closedCpuMicrosPerBlock: round(run.closeCpuMicros / run.blocks, 1),
    writeAmplification: round(run.writeBytes / run.diskBytes, 2),
    // Undefined too while the engine holds no table yet (everything still in its memtable and log).
    tableWriteAmplification:
      run.tableAccounts === undefined || run.tableAccounts.heldBytes === 0
        ? undefined
        : round(run.tableAccounts.writtenBytes / run.tableAccounts.heldBytes, 2),
    diskBytesPerBlock: Math.round(run.diskBytes / run.blocks),
    pageCache: run.pageCache,
    firstRead: percentiles(run.firstReadMs),
    againRead: percentiles(run.againReadMs),
    reopenMs: round(run.reopenMs, 1),
    maxRssMiB: round(run.maxRssBytes / 2 ** 20, 1),
    loadAverage,
  }
}

/**
 * One engine against classic-level: their CPU per block until closed (medians of the rounds), and
 * classic-level's over the engine's round by round: above 1 the engine is cheaper.
 */
export interface EngineVerdict {
  readonly engine: EngineName
  readonly cpuMicrosPerBlock: number
  readonly classicLevelCpuMicrosPerBlock: number
  readonly ratioByRound: readonly number[]
  readonly medianRatio: number
  /** Whether the engine is at least `switchFactor` times cheaper: only then is a switch worth weighing. */
  readonly clears: boolean
}

/** The verdict of every engine but classic-level, each run paired with classic-level's of the same round. */
export function engineVerdicts(figures: readonly EngineFigures[]): EngineVerdict[] {
  const classicLevel = figures.filter((f) => f.engine === 'classic-level')
  const baseline = new Map(classicLevel.map((f) => [f.round, f.closedCpuMicrosPerBlock]))
  const engines = [...new Set(figures.map((f) => f.engine))].filter((engine) => engine !== 'classic-level' && engine !== 'none')
  return engines.map((engine) => {
    const runs = figures.filter((f) => f.engine === engine && baseline.has(f.round))
    const ratioByRound = runs.map((f) => round(baseline.get(f.round)! / f.closedCpuMicrosPerBlock, 2))
    const medianRatio = round(quantile(ratioByRound, 0.5), 2)
    return {
      engine,
      cpuMicrosPerBlock: quantile(
        runs.map((f) => f.closedCpuMicrosPerBlock),
        0.5,
      ),
      classicLevelCpuMicrosPerBlock: quantile(
        classicLevel.map((f) => f.closedCpuMicrosPerBlock),
        0.5,
      ),
      ratioByRound,
      medianRatio,
      clears: medianRatio >= switchFactor,
    }
  })
}

const number = (value: number): string => value.toLocaleString('en-US')

/** The runs as a Markdown table, in the order they ran. */
export function formatEngineRuns(figures: readonly EngineFigures[]): string {
  const lines = [
    '| round | engine | blocks/s | CPU µs/block: written / closed | write amp.: /proc (own tables) | disk bytes/block | deep page, first read p50 / p99 | read again p50 / p99 | reopen | max RSS | load |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ]
  for (const f of figures) {
    const own = f.tableWriteAmplification === undefined ? '' : ` (${f.tableWriteAmplification})`
    const cache = f.pageCache === 'warm' ? ' (page cache warm)' : ''
    lines.push(
      `| ${f.round} | ${f.engine} | ${number(f.blocksPerSecond)} | ${f.writeCpuMicrosPerBlock} / ${f.closedCpuMicrosPerBlock} | ${f.writeAmplification}${own} | ${number(f.diskBytesPerBlock)} | ${f.firstRead.p50} / ${f.firstRead.p99} ms${cache} | ${f.againRead.p50} / ${f.againRead.p99} ms | ${f.reopenMs} ms | ${f.maxRssMiB} MiB | ${f.loadAverage} |`,
    )
  }
  return lines.join('\n')
}

/** What the rule says, one line per engine. */
export function formatVerdicts(verdicts: readonly EngineVerdict[]): string {
  if (verdicts.length === 0) return 'No engine besides classic-level was measured.'
  return verdicts
    .map(
      (v) =>
        `${v.engine}: ${v.cpuMicrosPerBlock} µs of CPU a block against classic-level's ${v.classicLevelCpuMicrosPerBlock} (medians); classic-level / ${v.engine} = ${v.medianRatio} (rounds: ${v.ratioByRound.join(', ')}): ${v.clears ? `at least ${switchFactor} times cheaper, worth weighing` : `not ${switchFactor} times cheaper, classic-level stays`}`,
    )
    .join('\n')
}
