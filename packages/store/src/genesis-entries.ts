import { genesisBlocks, type Network } from '@weft/block'
import type { DiskGuard } from './disk-guard.js'
import { blockIndexOperations, forEachIndexOperation } from './index-operations.js'
import type { ChainDb } from './keys.js'

/**
 * Writes the index entries of the network's genesis blocks that the store lacks, in one batch, and
 * nothing when it has them all (every open after the first: one read of about a hundred keys). Stores written before
 * derived no entries for a genesis block that misses its own target (recap-development's, and
 * mainnet01's chains 10-19, which join the graph at height 852,054), and yet said their index was
 * complete: their transactions were never found. Returns how many entries it wrote.
 */
export async function restoreGenesisEntries(db: ChainDb, network: Network, guard: Pick<DiskGuard, 'write'>): Promise<number> {
  const keys: Buffer[] = []
  const values: Buffer[] = []
  for (const { header, payload } of genesisBlocks(network))
    forEachIndexOperation(blockIndexOperations(header.chainId, header.height, header.hash, payload), (key, value) => {
      keys.push(key)
      values.push(value)
    })
  if (keys.length === 0) return 0
  const stored = await db.getMany(keys)
  const missing = keys.flatMap((key, at) => (stored[at]?.equals(values[at]!) ? [] : [{ type: 'put' as const, key, value: values[at]! }]))
  if (missing.length > 0) await guard.write(() => db.batch(missing))
  return missing.length
}
