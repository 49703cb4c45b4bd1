import { createHash } from 'node:crypto'
import { cutChains, cutHeightLimit, encodeU256, genesisHeight, type Network } from '@weft/block'
import { encodeHash } from '@weft/hash-text'
import type { ChainStore } from '@weft/store'
import { inProfileOrder, type ProfileRules } from '../profile/profiles.js'

/** One head of a cut: what /cut says of it. */
export interface CutHead {
  readonly chain: number
  readonly hash: Buffer
  readonly height: number
  readonly weight: bigint
}

/** Finds the ancestor-or-self of a block at a height (the store's `ancestorAt` and `getHeader`). */
export type AncestorLookup = (hash: Buffer, height: number) => Promise<CutHead | undefined>

/**
 * The heads of `/cut?maxheight=H`, as the real node limits a cut: the block height b of cut height H
 * (`cutHeightLimit`); unchanged when every head is at or below b; otherwise every head above b is
 * replaced by its ancestor at b, a chain whose genesis lies above b is left out, and the chains are
 * those of the graph in force at the lowest remaining head.
 */
export async function limitCut(
  network: Network,
  heads: readonly CutHead[],
  maxheight: number,
  ancestorAt: AncestorLookup,
): Promise<CutHead[]> {
  const limit = cutHeightLimit(network, maxheight)
  if (heads.every((head) => head.height <= limit)) return [...heads]
  const limited = await Promise.all(
    heads.map(async (head) => {
      if (genesisHeight(network, head.chain) > limit) return undefined
      return head.height <= limit ? head : await ancestorAt(head.hash, limit)
    }),
  )
  const remaining = limited.filter((head) => head !== undefined)
  const chains = new Set(cutChains(network, new Map(remaining.map((head) => [head.chain, head.height]))))
  return remaining.filter((head) => chains.has(head.chain))
}

/**
 * The /cut body as text: `hashes` in the profile's chain order (JSON.stringify would put the
 * integer-like keys ascending), and `id`, the SHA-512/256 of the raw hashes in that same order.
 */
export function cutText(rules: ProfileRules, network: Network, heads: readonly CutHead[]): string {
  const byChain = new Map(heads.map((head) => [head.chain, head]))
  const ordered = inProfileOrder(rules, byChain.keys()).map((chain) => byChain.get(chain)!)
  const hashes = ordered.map((head) => `"${head.chain}":{"height":${head.height},"hash":"${encodeHash(head.hash)}"}`).join(',')
  const weight = encodeU256(ordered.reduce((sum, head) => sum + head.weight, 0n)).toString('base64url')
  const height = ordered.reduce((sum, head) => sum + head.height, 0)
  const id = createHash('sha512-256')
    .update(Buffer.concat(ordered.map((head) => head.hash)))
    .digest('base64url')
  return `{"hashes":{${hashes}},"origin":null,"weight":"${weight}","height":${height},"instance":${JSON.stringify(network.name)},"id":"${id}"}`
}

/** The store's cut as /cut heads, limited by `maxheight` (a cut height) when given. */
export async function readCutHeads(store: ChainStore, maxheight: number | undefined): Promise<CutHead[]> {
  const heads = [...store.cut().values()].map((head) => ({
    chain: head.chainId,
    hash: head.hash,
    height: head.height,
    weight: head.weight,
  }))
  if (maxheight === undefined) return heads
  return limitCut(store.network, heads, maxheight, async (hash, height) => {
    const ref = await store.ancestorAt(hash, height)
    const header = ref === undefined ? undefined : await store.getHeader(ref.hash)
    return header === undefined ? undefined : { chain: header.chainId, hash: header.hash, height: header.height, weight: header.weight }
  })
}
