// LevelDB by classic-level, opened with the store's options (packages/store/src/open-store.ts).
import { engineStatsOf } from '@weft/store'
import { ClassicLevel } from 'classic-level'
import { type Engine, readInSteps } from './engine.js'

const mebibyte = 2 ** 20

/** A classic-level database in `path` with the store's LevelDB options; `compressed` false turns off Snappy. */
export async function openClassicLevel(path: string, compressed: boolean): Promise<Engine> {
  const db = new ClassicLevel<Buffer, Buffer>(path, {
    keyEncoding: 'buffer',
    valueEncoding: 'buffer',
    writeBufferSize: 16 * mebibyte,
    blockSize: 16 * 1024,
    compression: compressed,
  })
  await db.open()
  return {
    async write({ keys, values }) {
      // A chained batch, as the store's batch writer writes one.
      const batch = db.batch()
      for (let index = 0; index < keys.length; index++) batch.put(keys[index]!, values[index]!)
      await batch.write()
    },
    readPage: (gte, lt, limit) => readInSteps(db.iterator({ gte, lt, limit }), limit),
    tableAccounts() {
      // LevelDB's own accounts, to the MiB: what each level wrote (flushes and compactions) and holds.
      const { levels } = engineStatsOf(db)
      return {
        writtenBytes: levels.reduce((sum, level) => sum + level.writtenMiB, 0) * mebibyte,
        heldBytes: levels.reduce((sum, level) => sum + level.mebibytes, 0) * mebibyte,
      }
    },
    close: () => db.close(),
  }
}
