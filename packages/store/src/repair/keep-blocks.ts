import {
  allChains,
  computeBlockHash,
  decodeHeader,
  genesisBlock,
  genesisHeight,
  type Header,
  isBetterHead,
  type Network,
} from '@weft/block'
import { mapKeyOfHash } from '@weft/hash-text'
import {
  blockKeyHigh,
  blockKeyLow,
  type ChainDb,
  decodeBlockRecord,
  encodeHashRecord,
  hashIndexKey,
  hashOfBlockKey,
  heightOfBlockKey,
  payloadKey,
} from '../keys.js'

/** What the scan found on one chain. */
export interface ChainTally {
  /** Blocks kept. */
  blocks: number
  /** Blocks dropped: damaged, or above a loss (their parent or an adjacent parent gone). */
  dropped: number
  /** The lowest height at which a block was dropped or found lost, if any. */
  lostFrom: number | undefined
  /** The best block kept. */
  head: Header | undefined
}

/** A fresh tally. */
export const emptyTally = (): ChainTally => ({ blocks: 0, dropped: 0, lostFrom: undefined, head: undefined })

/** Notes a loss at `height` on the chain of `tally`. */
export function noteLoss(tally: ChainTally, height: number): void {
  tally.lostFrom = Math.min(tally.lostFrom ?? height, height)
}

type Entry = [key: Buffer, value: Buffer]

// The header of a block record, if it is whole: it decodes, it is the block its key names, and it hashes to its hash.
function wholeHeader([key, value]: Entry): Header | undefined {
  try {
    const header = decodeHeader(decodeBlockRecord(value).headerBinary)
    const named = header.chainId === key.readUInt32BE(1) && header.height === heightOfBlockKey(key)
    return named && header.hash.equals(hashOfBlockKey(key)) && computeBlockHash(header).equals(header.hash) ? header : undefined
  } catch {
    return undefined
  }
}

/**
 * Walks every block record up the heights, `windowHeights` heights of every chain at a time, and
 * keeps a block when it is whole and either a genesis block of the network or a block whose parent
 * and adjacent parents (all one height below) were kept: the store keeps its whole part, and what
 * stands above a loss is dropped, to be fetched again. Deletes the dropped records, writes the
 * hash index and payload index entries the kept blocks lack; answers a tally per chain.
 */
export async function keepWholeBlocks(db: ChainDb, network: Network, windowHeights: number): Promise<Map<number, ChainTally>> {
  const chains = allChains(network)
  const genesis = new Set(chains.map((chain) => mapKeyOfHash(genesisBlock(network, chain).header.hash)))
  const tallies = new Map(chains.map((chain) => [chain, emptyTally()]))
  let top = -1
  for (const chain of chains) {
    const [last] = await db
      .keys({ gte: blockKeyLow(chain, 0), lte: blockKeyHigh(chain, Number.MAX_SAFE_INTEGER), reverse: true, limit: 1 })
      .all()
    if (last !== undefined) top = Math.max(top, heightOfBlockKey(last))
  }
  let below = new Set<string>()
  for (let from = 0; from <= top; from += windowHeights) {
    const to = Math.min(top, from + windowHeights - 1)
    const entries: Entry[] = []
    for (const chain of chains) entries.push(...(await db.iterator({ gte: blockKeyLow(chain, from), lte: blockKeyHigh(chain, to) }).all()))
    entries.sort(([a], [b]) => heightOfBlockKey(a) - heightOfBlockKey(b))
    const kept = new Map<number, Set<string>>([[from - 1, below]])
    const keptEntries: Array<{ entry: Entry; header: Header }> = []
    const dropped: Buffer[] = []
    for (const entry of entries) {
      const height = heightOfBlockKey(entry[0])
      const tally = tallies.get(entry[0].readUInt32BE(1))!
      const header = wholeHeader(entry)
      const parents = kept.get(height - 1)
      const rooted =
        header !== undefined &&
        (genesisHeight(network, header.chainId) === height
          ? genesis.has(mapKeyOfHash(header.hash))
          : parents !== undefined &&
            [header.parent, ...header.adjacents.map(([, hash]) => hash)].every((hash) => parents.has(mapKeyOfHash(hash))))
      if (!rooted) {
        dropped.push(entry[0])
        tally.dropped += 1
        noteLoss(tally, height)
        continue
      }
      if (!kept.has(height)) kept.set(height, new Set())
      kept.get(height)!.add(mapKeyOfHash(header.hash))
      keptEntries.push({ entry, header })
      tally.blocks += 1
      if (tally.head === undefined || isBetterHead(header, tally.head)) tally.head = header
    }
    below = kept.get(to) ?? new Set()
    await writeWindow(db, keptEntries, dropped)
  }
  return tallies
}

// Deletes a window's dropped records; writes the hash index entries its kept blocks lack (or hold
// wrong) and the payload index entries missing.
async function writeWindow(db: ChainDb, kept: ReadonlyArray<{ entry: Entry; header: Header }>, dropped: readonly Buffer[]): Promise<void> {
  const hashKeys = kept.map(({ header }) => hashIndexKey(header.hash))
  const payloadKeys = kept.map(({ entry }) => payloadKey(decodeBlockRecord(entry[1]).payloadHash))
  const [hashes, payloads] = await Promise.all([db.getMany(hashKeys), db.getMany(payloadKeys)])
  const operations: Array<{ type: 'put'; key: Buffer; value: Buffer } | { type: 'del'; key: Buffer }> = dropped.map((key) => ({
    type: 'del',
    key,
  }))
  kept.forEach(({ entry, header }, index) => {
    const record = encodeHashRecord(header.chainId, header.height, header.parent)
    if (!hashes[index]?.equals(record)) operations.push({ type: 'put', key: hashKeys[index]!, value: record })
    if (payloads[index] === undefined) operations.push({ type: 'put', key: payloadKeys[index]!, value: entry[0] })
  })
  if (operations.length > 0) await db.batch(operations)
}
