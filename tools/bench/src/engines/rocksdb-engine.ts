// RocksDB by @nxtedition/rocksdb (an abstract-level 1 database), at the binding's defaults but for
// the store's 16 KiB table blocks; `compressed` false turns off its ZSTD for tables and log.
import { RocksLevel } from '@nxtedition/rocksdb'
import { EngineStatsError } from '../errors.js'
import { type Engine, readInSteps } from './engine.js'

const gigabyte = 2 ** 30

// The number of GB that `pattern` captures in RocksDB's stats text (as in "Cumulative compaction: 1.23 GB write").
function statGigabytes(stats: string, pattern: RegExp): number {
  const match = pattern.exec(stats)
  if (match === null) throw new EngineStatsError(`Expected RocksDB's stats to match ${pattern}, but they begin: ${stats.slice(0, 200)}`)
  return Number(match[1]) * gigabyte
}

/** A RocksDB database in `path`. */
export async function openRocksDb(path: string, compressed: boolean): Promise<Engine> {
  const db = new RocksLevel(path, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  await db.open({ blockSize: 16 * 1024, compression: compressed, walCompression: compressed })
  return {
    async write({ keys, values }) {
      const batch = db.batch()
      for (let index = 0; index < keys.length; index++) batch.put(keys[index]!, values[index]!)
      await batch.write()
    },
    readPage: (gte, lt, limit) => readInSteps(db.iterator({ gte, lt, limit }), limit),
    tableAccounts() {
      // Its own accounts: what its compactions wrote (memtable flushes count as level 0's, to 10 MB),
      // against its table files now.
      const stats = db.getProperty('rocksdb.stats')
      return {
        writtenBytes: statGigabytes(stats, /Cumulative compaction: ([\d.]+) GB write/),
        heldBytes: Number(db.getProperty('rocksdb.total-sst-files-size')),
      }
    },
    close: () => db.close(),
  }
}
