import { createHash } from 'node:crypto'
import { chainsAt, encodeU256, genesisHeight } from '@weft/block'
import { encodeHash } from '@weft/hash-text'
import { ancestorAt } from '@weft/traversal'
import type { Cut, NodeInfo } from '@weft/types'
import type { NodeContext } from './node-context.js'

/** The /info object: the network's facts in the profile's units. */
export function nodeInfo(node: NodeContext): NodeInfo {
  const { network, rules } = node
  const cutHeight = Math.max(0, ...[...node.store.cut().values()].map((head) => head.height))
  const nodeChains = chainsAt(network, cutHeight).map(String)
  const newest = network.graphs[0]
  const newestChains = newest === undefined ? [] : [...newest.graph.keys()].sort((a, b) => a - b)
  const graphHistory: NodeInfo['nodeGraphHistory'] = network.graphs.map((entry) => [
    entry.height,
    [...entry.graph.entries()].sort(([a], [b]) => a - b).map(([chain, adjacents]) => [chain, [...adjacents]]),
  ])
  return {
    nodeApiVersion: '0.0',
    nodeBlockDelay: (network.blockDelay * 1_000_000) / rules.blockDelayMicros,
    nodeChains,
    nodeGenesisHeights: newestChains.map((chain) => [String(chain), genesisHeight(network, chain)]),
    nodeGraphHistory: graphHistory,
    nodeHistoricalChains: graphHistory,
    nodeLatestBehaviorHeight: newest?.height ?? 0,
    nodeNumberOfChains: nodeChains.length,
    nodePackageVersion: node.nodeVersion,
    nodeServiceDate: node.serviceDate,
    nodeVersion: network.name,
  }
}

interface CutEntry {
  readonly chain: number
  readonly hash: Buffer
  readonly height: number
  readonly weight: bigint
}

// With a cut height, every head is replaced by its ancestor at maxheight / chains; chains born above it are left out.
async function limitedEntries(node: NodeContext, entries: readonly CutEntry[], maxheight: number): Promise<CutEntry[]> {
  const chainCount = node.network.graphs[0]?.graph.size ?? 1
  const limit = Math.floor(maxheight / chainCount)
  const limited = await Promise.all(
    entries.map(async (entry) => {
      if (genesisHeight(node.network, entry.chain) > limit) return undefined
      if (entry.height <= limit) return entry
      const ref = await ancestorAt(node.store, entry.hash, limit)
      const header = ref === undefined ? undefined : await node.store.getHeader(ref.hash)
      return header === undefined ? undefined : { chain: entry.chain, hash: header.hash, height: header.height, weight: header.weight }
    }),
  )
  return limited.filter((entry) => entry !== undefined)
}

/** The /cut object; with `maxheight`, every head is replaced by its ancestor at maxheight / chains. */
export async function readCut(node: NodeContext, maxheight: number | undefined): Promise<Cut> {
  const heads: CutEntry[] = [...node.store.cut().entries()]
    .sort(([a], [b]) => a - b)
    .map(([chain, head]) => ({ chain, hash: head.hash, height: head.height, weight: head.weight }))
  const entries = maxheight === undefined ? heads : await limitedEntries(node, heads, maxheight)
  const hashes: Cut['hashes'] = {}
  for (const entry of entries) hashes[String(entry.chain)] = { height: entry.height, hash: encodeHash(entry.hash) }
  const id = createHash('sha512-256')
    .update(Buffer.concat(entries.map((entry) => entry.hash)))
    .digest('base64url')
  return {
    hashes,
    origin: null,
    weight: encodeU256(entries.reduce((sum, entry) => sum + entry.weight, 0n)).toString('base64url'),
    height: entries.reduce((sum, entry) => sum + entry.height, 0),
    instance: node.network.name,
    id,
  }
}
