import { chainsAt, graphAt, type Network } from './networks.js'

/**
 * The order in which chainweb-node writes chain ids wherever it writes a map or set of them (the
 * iteration order of its Haskell hash maps): the chainweb profile lists chains in this order, any
 * subset in the same relative order. The spec profile lists them ascending.
 */
export const CHAINWEB_NODE_CHAIN_ORDER: readonly number[] = Object.freeze([
  16, 9, 0, 6, 4, 1, 2, 18, 14, 10, 3, 12, 5, 17, 11, 8, 7, 15, 13, 19,
])

const chainwebNodeRank = new Map(CHAINWEB_NODE_CHAIN_ORDER.map((chain, rank) => [chain, rank]))

/** `chains` in chainweb-node's order (chains it never has come last, ascending). */
export function inChainwebNodeOrder(chains: Iterable<number>): number[] {
  const rank = (chain: number): number => chainwebNodeRank.get(chain) ?? CHAINWEB_NODE_CHAIN_ORDER.length + chain
  return [...chains].sort((a, b) => rank(a) - rank(b))
}

/**
 * The former name of `CHAINWEB_NODE_CHAIN_ORDER`.
 * @deprecated Use `CHAINWEB_NODE_CHAIN_ORDER`.
 * @alias
 */
export const HASH_MAP_CHAIN_ORDER: readonly number[] = CHAINWEB_NODE_CHAIN_ORDER

/**
 * The former name of `inChainwebNodeOrder`, the same function.
 * @deprecated Use `inChainwebNodeOrder`.
 * @alias
 */
export const inHashMapOrder: (chains: Iterable<number>) => number[] = inChainwebNodeOrder

/**
 * The chains a cut holds, ascending, given the height of every chain's head (`heads`: chain ->
 * height, for the chains that have one): the chains of the graph in force at the cut's lowest head
 * height. A chain that joins at a graph transition enters once every head of the cut is at or above
 * the transition height; a head of a chain outside that graph is left out.
 */
export function cutChains(network: Network, heads: ReadonlyMap<number, number>): number[] {
  const oldest = network.graphs[network.graphs.length - 1]!
  let chains = [...oldest.graph.keys()].filter((chain) => heads.has(chain))
  for (;;) {
    if (chains.length === 0) return []
    const lowest = Math.min(...chains.map((chain) => heads.get(chain)!))
    const next = chainsAt(network, lowest).filter((chain) => heads.has(chain))
    if (next.length === chains.length) return next
    chains = next
  }
}

/**
 * The block height that `/cut?maxheight=H` limits every head to: floor(H / n), n being the chain
 * count of the graph in force at cut height H, where a graph takes force at the cut height of its
 * transition height times its chain count (on mainnet01 the limit falls back from 1704107 to 852054
 * between H = 17041079 and 17041080, as the real node's does).
 */
export function cutHeightLimit(network: Network, cutHeight: number): number {
  let chainCount = graphAt(network, 0).size
  for (const { height, graph } of network.graphs) {
    if (cutHeight >= height * graph.size) {
      chainCount = graph.size
      break
    }
  }
  return Math.floor(cutHeight / chainCount)
}
