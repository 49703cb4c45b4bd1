import type { ChainStore } from '@weft/store'

/** The hashes the load's requests name: each chain's head, and some payloads; and the heights every chain has. */
export interface KnownBlocks {
  readonly heads: Record<string, string>
  readonly payloads: string[]
  /** The lowest head height over the chains: pages below it are full on every chain. */
  readonly heights: number
}

/** What a store holds now, for the read load's requests: heads, 20 payload hashes of chain 0, the common height. */
export async function knownBlocks(store: ChainStore): Promise<KnownBlocks> {
  const payloads: string[] = []
  for await (const item of store.range({ chain: 0, minheight: 1 })) {
    payloads.push(item.payloadHash.toString('base64url'))
    if (payloads.length >= 20) break
  }
  const cut = [...store.cut()]
  const heads = Object.fromEntries(cut.map(([chain, header]) => [String(chain), header.hash.toString('base64url')]))
  return { heads, payloads, heights: Math.min(...cut.map(([, header]) => header.height)) }
}
