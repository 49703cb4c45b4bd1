// LMDB by lmdb (lmdb-js): binary keys and values, its defaults otherwise. A batch is one
// transaction, committed on lmdb-js's writer thread; reads are synchronous range reads of the map.
import { join } from 'node:path'
import { open } from 'lmdb'
import type { Engine } from './engine.js'

/**
 * An LMDB database in the folder `path` (its map `data.mdb` and lock file); `lz4` compresses values
 * over 1,000 bytes, `noSync` never flushes (what LMDB costs without its fsyncs, not a safe setting).
 */
export async function openLmdb(path: string, settings: { lz4: boolean; noSync: boolean }): Promise<Engine> {
  const db = open<Buffer, Buffer>({
    path: join(path, 'data.mdb'),
    keyEncoding: 'binary',
    encoding: 'binary',
    compression: settings.lz4,
    noSync: settings.noSync,
  })
  return {
    async write({ keys, values }) {
      await db.batch(() => {
        for (let index = 0; index < keys.length; index++) void db.put(keys[index]!, values[index]!)
      })
    },
    async readPage(gte, lt, limit) {
      const values: Buffer[] = []
      for (const { value } of db.getRange({ start: gte, end: lt, limit })) values.push(value)
      return values
    },
    // LMDB writes copies of the B-tree pages a commit touches and keeps no account of the bytes.
    tableAccounts: () => undefined,
    async close() {
      await db.flushed
      await db.close()
    },
  }
}
