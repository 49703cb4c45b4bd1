import type { ClassicLevel } from 'classic-level'

/** One level of LevelDB's tree, as its `leveldb.stats` property prints it. */
export interface EngineLevel {
  readonly level: number
  /** Table files on the level. */
  readonly files: number
  /** Their size, in MiB rounded to a whole one (LevelDB's rounding). */
  readonly mebibytes: number
  /** Since the store was opened: the time compactions into this level took, seconds rounded. */
  readonly compactionSeconds: number
  /** Since the store was opened: MiB that compactions into this level read (level 0: none, it takes memtable flushes). */
  readonly readMiB: number
  /** Since the store was opened: MiB that compactions (and, into levels 0 to 2, memtable flushes) wrote to this level. */
  readonly writtenMiB: number
}

/**
 * What LevelDB, under the store, reports of itself: the levels of its tree (those with files or
 * compactions) and its own estimate of its memory. What it wrote against what the tables hold is
 * its write amplification, the cost of a bulk load that grows with the store (README, "The store's
 * disk"). Counts start when the store is opened.
 */
export interface EngineStats {
  readonly levels: readonly EngineLevel[]
  /** LevelDB's estimate of its memory: memtables and the block cache, bytes. */
  readonly memoryBytes: number
}

/** The engine statistics of an open classic-level database: the store's, or any other. */
export function engineStatsOf(db: Pick<ClassicLevel, 'getProperty'>): EngineStats {
  return {
    levels: parseLevelStats(db.getProperty('leveldb.stats')),
    memoryBytes: Number(db.getProperty('leveldb.approximate-memory-usage')),
  }
}

// `  3      814      969       218    20504     20500`: level, files, size, seconds, read, written.
const levelLine = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*$/

/** The level lines of LevelDB's `leveldb.stats` text (its heading lines are skipped). */
export function parseLevelStats(text: string): EngineLevel[] {
  const levels: EngineLevel[] = []
  for (const line of text.split('\n')) {
    const match = levelLine.exec(line)
    if (match === null) continue
    const [level, files, mebibytes, compactionSeconds, readMiB, writtenMiB] = match.slice(1).map(Number) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ]
    levels.push({ level, files, mebibytes, compactionSeconds, readMiB, writtenMiB })
  }
  return levels
}
