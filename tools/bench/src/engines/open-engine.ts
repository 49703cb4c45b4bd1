// The engines under test, by name. Each is loaded only in the process that measures it, so that no
// other engine's library or threads share that process.
import type { Engine } from './engine.js'

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
