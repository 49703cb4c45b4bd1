import { type Block, blockFromJsonText } from '@weft/block'
import { type ChainStore, type CutPolicy, openStore } from '@weft/store'
import type { NetworkName } from '@weft/types'
import { freshFolder, type TestLike } from './folders.js'

/** A classic-level store in a fresh folder of the test (or `path`), closed when `t` ends. */
export async function testStore(
  t: TestLike,
  options: { network?: NetworkName; cutPolicy?: CutPolicy; path?: string } = {},
): Promise<ChainStore> {
  const { network = 'development', cutPolicy = 'fork-choice', path = freshFolder(t) } = options
  const store = await openStore({ path, network, cutPolicy })
  t.teardown(() => store.close())
  return store
}

/** A fresh store that follows an upstream (its cut adopted), closed when `t` ends. */
export const followerStore = (t: TestLike, network: NetworkName = 'development', path = freshFolder(t)): Promise<ChainStore> =>
  testStore(t, { network, cutPolicy: 'adopted', path })

/** Every stored block hash of every chain of the network's latest graph, ascending by (height, hash), as base64url, chain by chain. */
export async function storedHashes(store: ChainStore): Promise<string[][]> {
  const chains = [...store.network.graphs[0]!.graph.keys()].sort((a, b) => a - b)
  const all: string[][] = []
  for (const chain of chains) {
    const hashes: string[] = []
    for await (const item of store.range({ chain })) hashes.push(item.hash.toString('base64url'))
    all.push(hashes)
  }
  return all
}

/** Every block of `source`, parents first (by height, then chain). */
export async function blocksOf(source: ChainStore): Promise<Block[]> {
  const blocks: Block[] = []
  for (const chain of source.heads().keys()) {
    const items = []
    for await (const item of source.range({ chain })) items.push(item)
    for (const json of await source.readRangeBlocks(items)) blocks.push(blockFromJsonText(json))
  }
  return blocks.sort((a, b) => a.header.height - b.header.height || a.header.chainId - b.header.chainId)
}

/** A store's cut as chain -> base64url hash, for comparisons. */
export const cutOf = (store: ChainStore): Record<string, string> =>
  Object.fromEntries([...store.cut()].map(([chain, head]) => [String(chain), head.hash.toString('base64url')]))
