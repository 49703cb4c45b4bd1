// The engines under test, each behind the same small surface: atomic batches of puts, a page of
// records read in key order, what the engine says it wrote, and close. Each is loaded only in the
// process that measures it, so that no other engine's library or threads share that process.
import type { Batch } from './workload.js'

/** An open database of one engine. */
export interface Engine {
  /** Writes the batch atomically; resolves once the engine holds it (a read sees it). */
  write(batch: Batch): Promise<void>
  /** The values of the first `limit` keys from `gte` (inclusive) below `lt`, in key order. */
  readPage(gte: Buffer, lt: Buffer, limit: number): Promise<Buffer[]>
  /**
   * What the engine says it wrote to its tables (flushes and compactions, its log left out) and
   * what its tables hold now, bytes; undefined for an engine that does not say.
   */
  tableAccounts(): { readonly writtenBytes: number; readonly heldBytes: number } | undefined
  close(): Promise<void>
}

/** The engines and settings the bench can measure. */
export const engineNames = [
  'classic-level',
  'classic-level-uncompressed',
  'rocksdb',
  'rocksdb-uncompressed',
  'lmdb',
  'lmdb-lz4',
  'lmdb-nosync',
  'none',
] as const
export type EngineName = (typeof engineNames)[number]

/** What each engine is, as the report names it. */
export const engineSettings: Readonly<Record<EngineName, string>> = {
  'classic-level': "LevelDB (classic-level), the store's options: 16 MiB memtable, 16 KiB blocks, Snappy",
  'classic-level-uncompressed': 'the same LevelDB, tables not compressed',
  rocksdb:
    "RocksDB (@nxtedition/rocksdb), the binding's defaults (64 MiB memtable, ZSTD tables and log, one background job) and 16 KiB blocks",
  'rocksdb-uncompressed': 'the same RocksDB, tables and log not compressed',
  lmdb: "LMDB (lmdb), binary keys and values, the binding's defaults (4 KiB pages, no compression, commits flushed after they resolve)",
  'lmdb-lz4': 'the same LMDB, values over 1,000 bytes compressed with LZ4',
  'lmdb-nosync': 'the same LMDB, never flushed (noSync: a crash of the machine may corrupt it, so no store could run so)',
  none: 'no engine: the batches built and dropped (what the workload itself costs)',
}

/** Opens (creating) a database of `name` in the empty folder `path`. */
export async function openEngine(name: EngineName, path: string): Promise<Engine> {
  switch (name) {
    case 'classic-level':
    case 'classic-level-uncompressed':
      return (await import('./classic-level-engine.js')).openClassicLevel(path, name === 'classic-level')
    case 'rocksdb':
    case 'rocksdb-uncompressed':
      return (await import('./rocksdb-engine.js')).openRocksDb(path, name === 'rocksdb')
    case 'lmdb':
    case 'lmdb-lz4':
    case 'lmdb-nosync':
      return (await import('./lmdb-engine.js')).openLmdb(path, { lz4: name === 'lmdb-lz4', noSync: name === 'lmdb-nosync' })
    case 'none':
      return {
        write: async () => {},
        readPage: async () => [],
        tableAccounts: () => undefined,
        close: async () => {},
      }
  }
}

/** An abstract-level iterator, read as the store reads a page: 16 entries first, then twice as many each call. */
export interface LevelIterator {
  nextv(size: number): Promise<Array<[Buffer, Buffer]>>
  close(): Promise<void>
}

/** The values of up to `limit` entries of `iterator`, read in the store's steps; closes it. */
export async function readInSteps(iterator: LevelIterator, limit: number): Promise<Buffer[]> {
  const values: Buffer[] = []
  try {
    for (let step = 16; values.length < limit; step *= 2) {
      const entries = await iterator.nextv(Math.min(step, limit - values.length))
      if (entries.length === 0) break
      for (const [, value] of entries) values.push(value)
    }
    return values
  } finally {
    await iterator.close()
  }
}
