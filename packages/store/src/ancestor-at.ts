import { mapKeyOfHash } from '@weft/hash-text'
import type { HeaderRef } from '@weft/traversal'
import type { BlockReads } from './block-reads.js'
import { blockKeyHigh, blockKeyLow, type ChainDb, hashOfBlockKey, heightOfBlockKey } from './keys.js'
import type { KnownBlocks } from './line-reader.js'

// Keys looked at, upwards from the height asked, for a height that holds a single block.
const soleSearchLimit = 256

/**
 * The ancestor-or-self of `hash` at `height`. Every stored block's parent is stored, so a height
 * between `height` and the block's own that holds a single block of the chain holds the block's
 * ancestor. On a chain with few orphans the answer is the lowest such height, found by reading a
 * few keys up from `height`, followed by a walk down of the few heights in between. Where orphans
 * crowd every height near `height` the walk starts at the block itself; it reads the small
 * hash-index records (recent headers first), which costs less per height than block records when
 * every height holds several blocks.
 */
export async function findAncestor(
  db: ChainDb,
  reads: BlockReads,
  recent: KnownBlocks,
  hash: Uint8Array,
  height: number,
): Promise<HeaderRef | undefined> {
  if (!Number.isSafeInteger(height) || height < 0) return undefined
  const [from] = await reads.refs([hash])
  if (from === undefined || from.height <= height) return from?.height === height ? from : undefined
  const sole = await soleBlockFrom(db, from.chainId, height, from.height - 1)
  let at: HeaderRef | undefined = from
  if (sole !== undefined) [at] = await reads.refs([sole])
  while (at !== undefined && at.height > height) {
    const known = recent(mapKeyOfHash(at.parent))?.header
    at =
      known === undefined
        ? (await reads.refs([at.parent]))[0]
        : { hash: known.hash, parent: known.parent, height: known.height, chainId: known.chainId }
  }
  return at
}

// The hash of the block at the lowest height in [bottom, top] of `chain` that holds exactly one
// block, looking at no more than `soleSearchLimit` keys; `undefined` when none was found.
async function soleBlockFrom(db: ChainDb, chain: number, bottom: number, top: number): Promise<Buffer | undefined> {
  const iterator = db.keys({ gte: blockKeyLow(chain, bottom), lte: blockKeyHigh(chain, top), limit: soleSearchLimit })
  try {
    let first: Buffer | undefined
    let count = 0
    let read = 0
    // The first batch is small: on a chain with few orphans the first height usually decides.
    for (let keys = await iterator.nextv(8); keys.length > 0; keys = await iterator.nextv(soleSearchLimit)) {
      read += keys.length
      for (const key of keys) {
        if (count > 0 && heightOfBlockKey(key) !== heightOfBlockKey(first!)) {
          if (count === 1) return hashOfBlockKey(first!)
          count = 0
        }
        if (count === 0) first = key
        count++
      }
    }
    // The last height read is whole only when the search ended at `top` rather than at its limit.
    return count === 1 && read < soleSearchLimit ? hashOfBlockKey(first!) : undefined
  } finally {
    await iterator.close()
  }
}
