// What a scale store costs at rest: bytes on disk per block, the index's share, how many blocks,
// and how long it takes to open.
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { decodeEntry, INDEX_PREFIX, IndexKind } from '@weft/index'
import { openStore } from '@weft/store'
import type { NetworkName } from '@weft/types'
import { ClassicLevel } from 'classic-level'

/** A store at rest. */
export interface StoreAtRest {
  readonly blocks: number
  readonly diskBytes: number
  /** Bytes of the hash index (`h` records) and the heads (`c`), as LevelDB estimates them. */
  readonly indexBytes: number
  readonly blockRecordBytes: number
  readonly payloadBytes: number
  /** Milliseconds of `openStore` (median of three, the first included). */
  readonly openMs: number
  /** The transaction index: its bytes as LevelDB estimates them (every `i` key; the event entries' alone), the transactions and events it holds. */
  readonly txIndex: { readonly bytes: number; readonly eventBytes: number; readonly transactions: number; readonly events: number }
  /** Table files on each of LevelDB's seven levels, 0 to 6: how many a read of old blocks may pass through. */
  readonly filesByLevel: readonly number[]
}

function folderBytes(path: string): number {
  let total = 0
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name)
    total += entry.isDirectory() ? folderBytes(full) : statSync(full).size
  }
  return total
}

const prefix = (letter: string): [Buffer, Buffer] => [Buffer.from(letter), Buffer.of(letter.charCodeAt(0) + 1)]

/** Counts, sizes and the open time of the store in `path`; nothing else may hold it. */
export async function analyseStore(path: string, network: NetworkName): Promise<StoreAtRest> {
  const opens: number[] = []
  for (let round = 0; round < 3; round++) {
    const started = performance.now()
    const store = await openStore({ path, network })
    opens.push(performance.now() - started)
    await store.close()
  }
  const db = new ClassicLevel<Buffer, Buffer>(path, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  await db.open()
  try {
    let blocks = 0
    const iterator = db.keys({ gte: prefix('h')[0], lt: prefix('h')[1] })
    for (let batch = await iterator.nextv(10_000); batch.length > 0; batch = await iterator.nextv(10_000)) blocks += batch.length
    await iterator.close()
    const size = (letter: string): Promise<number> => db.approximateSize(...prefix(letter))
    const kind = (letter: number): [Buffer, Buffer] => [Buffer.of(INDEX_PREFIX, letter), Buffer.of(INDEX_PREFIX, letter + 1)]
    let transactions = 0
    const keys = db.keys({ gte: kind(IndexKind.transaction)[0], lt: kind(IndexKind.transaction)[1] })
    for (let batch = await keys.nextv(10_000); batch.length > 0; batch = await keys.nextv(10_000)) transactions += batch.length
    await keys.close()
    // One entry per event name in a block; its value lists each event of that name.
    let events = 0
    const entries = db.iterator({ gte: kind(IndexKind.event)[0], lt: kind(IndexKind.event)[1] })
    for (let batch = await entries.nextv(10_000); batch.length > 0; batch = await entries.nextv(10_000))
      for (const [key, value] of batch) {
        const entry = decodeEntry(key, value)
        if (entry.kind === 'event') events += entry.items.length
      }
    await entries.close()
    return {
      blocks,
      diskBytes: folderBytes(path),
      indexBytes: (await size('h')) + (await size('c')),
      blockRecordBytes: await size('b'),
      payloadBytes: await size('p'),
      txIndex: { bytes: await size('i'), eventBytes: await db.approximateSize(...kind(IndexKind.event)), transactions, events },
      openMs: opens.sort((a, b) => a - b)[1]!,
      filesByLevel: Array.from({ length: 7 }, (_, level) => Number(db.getProperty(`leveldb.num-files-at-level${level}`))),
    }
  } finally {
    await db.close()
  }
}
