import {
  blockKey,
  blockKeyLength,
  blockPrefix,
  type ChainDb,
  decodeBlockRecord,
  decodeHashRecord,
  hashPrefix,
  payloadPrefix,
} from '../keys.js'
import { type ChainTally, emptyTally, noteLoss } from './keep-blocks.js'

// Records read and checked per step.
const step = 1000

// Each record of one kind (`prefix`), `step` at a time, until `visit` says stop.
async function eachRecord(
  db: ChainDb,
  prefix: number,
  visit: (entries: Array<[Buffer, Buffer]>) => Promise<boolean | undefined>,
): Promise<void> {
  const iterator = db.iterator({ gte: Buffer.of(prefix), lt: Buffer.of(prefix + 1) })
  try {
    for (;;) {
      const entries = await iterator.nextv(step)
      if (entries.length === 0 || (await visit(entries)) === false) return
    }
  } finally {
    await iterator.close()
  }
}

/**
 * Deletes the hash index entries whose block record is gone (the block was lost or dropped), and
 * notes the height each names as lost on its chain: a block lost with no block above it to show it
 * is found here.
 */
export async function dropDanglingHashes(db: ChainDb, tallies: Map<number, ChainTally>): Promise<void> {
  await eachRecord(db, hashPrefix, async (entries) => {
    const found = entries.map(([key, value]) => {
      try {
        const record = decodeHashRecord(value)
        return { key, record, block: blockKey(record.chainId, record.height, key.subarray(1)) }
      } catch {
        return { key, record: undefined, block: undefined }
      }
    })
    const stored = await db.hasMany(found.map(({ block }) => block ?? Buffer.of(blockPrefix)))
    const gone = found.filter(({ record }, index) => record === undefined || !stored[index])
    for (const { record } of gone) {
      if (record === undefined) continue
      if (!tallies.has(record.chainId)) tallies.set(record.chainId, emptyTally())
      noteLoss(tallies.get(record.chainId)!, record.height)
    }
    if (gone.length > 0) await db.batch(gone.map(({ key }) => ({ type: 'del' as const, key })))
    return undefined
  })
}

/**
 * Deletes the payload index entries whose block record is gone, and points each at a kept block
 * that holds the payload, if one does (a payload many blocks share, the empty one above all).
 */
export async function repointPayloads(db: ChainDb): Promise<void> {
  const orphaned = new Set<string>()
  await eachRecord(db, payloadPrefix, async (entries) => {
    const stored = await db.hasMany(entries.map(([, block]) => (block.length === blockKeyLength ? block : Buffer.of(blockPrefix))))
    const gone = entries.filter((_, index) => !stored[index])
    for (const [key] of gone) orphaned.add(key.toString('hex'))
    if (gone.length > 0) await db.batch(gone.map(([key]) => ({ type: 'del' as const, key })))
    return undefined
  })
  if (orphaned.size === 0) return
  await eachRecord(db, blockPrefix, async (entries) => {
    const operations = []
    for (const [block, value] of entries) {
      const key = Buffer.concat([Buffer.of(payloadPrefix), decodeBlockRecord(value).payloadHash])
      if (orphaned.delete(key.toString('hex'))) operations.push({ type: 'put' as const, key, value: block })
    }
    if (operations.length > 0) await db.batch(operations)
    return orphaned.size > 0
  })
}
