import { chainsAt, type Header, type Network } from '@weft/block'
import type { BlockReads } from './block-reads.js'
import type { ChangeFeed } from './change-feed.js'
import { InvalidCutError } from './errors.js'
import type { ChainDb } from './keys.js'
import { LineReader } from './line-reader.js'
import { adoptedCutOperation, cutJoined, type NodeCut, sameCut } from './node-cut.js'
import type { RecentHeaders } from './recent-headers.js'

/** What adopting a cut reads, writes and tells. */
export interface AdoptionParts {
  readonly db: ChainDb
  readonly network: Network
  readonly reads: BlockReads
  readonly recent: RecentHeaders
  readonly cut: NodeCut
  readonly feed: ChangeFeed
  readonly syncWrites: boolean
}

/**
 * Makes the cut of `hashes` (chain -> head hash) the node's cut: every head must be stored on its
 * chain, and the chains must be those of the graph in force at the lowest head. Persists it, then
 * announces the blocks that joined. Run it in turn with the store's writes.
 */
export async function adoptCut(parts: AdoptionParts, hashes: ReadonlyMap<number, Uint8Array>): Promise<void> {
  const { db, network, reads, recent, cut, feed, syncWrites } = parts
  const chains = [...hashes.keys()].sort((a, b) => a - b)
  const stored = await reads.storedHeaders(
    chains.map((chain) => hashes.get(chain)!),
    'pool',
  )
  const after = new Map<number, Header>()
  chains.forEach((chain, index) => {
    const head = stored[index]?.header
    const hash = Buffer.from(hashes.get(chain)!).toString('base64url')
    if (head === undefined) throw new InvalidCutError(`the head ${hash} of chain ${chain} is not stored`)
    if (head.chainId !== chain) throw new InvalidCutError(`the head ${hash} named for chain ${chain} is a block of chain ${head.chainId}`)
    after.set(chain, head)
  })
  const expected = chainsAt(network, Math.min(...[...after.values()].map((head) => head.height)))
  if (expected.length !== chains.length || expected.some((chain, index) => chain !== chains[index])) {
    throw new InvalidCutError(`expected the chains [${expected.join(',')}] of the graph at the lowest head, received [${chains.join(',')}]`)
  }
  const before = cut.cut
  if (sameCut(before, after)) return
  const joined = await cutJoined(network, before, after, (chain) => new LineReader(db, chain, (key) => recent.get(key)))
  await db.batch([adoptedCutOperation(after)], { sync: syncWrites })
  cut.move(after)
  feed.emit({ type: 'cut', cut: after, joined })
}
