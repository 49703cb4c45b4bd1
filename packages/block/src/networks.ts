import type { NetworkName } from '@weft/types'
import { UnknownChainError, UnknownNetworkError } from './errors.js'
import { type NetworkRules, networkRules } from './network-rules.js'

/** A chain graph: chain id -> adjacent chain ids, in the order the network lists them. */
export type ChainGraph = ReadonlyMap<number, readonly number[]>

/** What a node needs to know about a network. */
export interface Network {
  name: NetworkName
  /** u32 code in the binary header */
  versionCode: number
  /** seconds */
  blockDelay: number
  /** microseconds since the POSIX epoch: creationTime and epochStart of every genesis block */
  genesisTime: number
  /** newest first; the last one starts at height 0 */
  graphs: ReadonlyArray<{ height: number; graph: ChainGraph }>
  /** the header rules that change with the height (difficulty adjustment, feature flags), as data */
  rules: NetworkRules
}

function graph(lists: ReadonlyArray<readonly number[]>): ChainGraph {
  return new Map(lists.map((adjacents, chain) => [chain, Object.freeze([...adjacents])] as const))
}

/** The Petersen graph: 10 chains of degree 3. */
export const PETERSEN_GRAPH: ChainGraph = graph([
  [2, 3, 5],
  [3, 4, 6],
  [4, 0, 7],
  [0, 1, 8],
  [1, 2, 9],
  [0, 6, 9],
  [1, 5, 7],
  [2, 6, 8],
  [3, 7, 9],
  [4, 8, 5],
])

/** The twenty-chain graph of degree 3. */
export const TWENTY_CHAIN_GRAPH: ChainGraph = graph([
  [5, 10, 15],
  [6, 11, 16],
  [7, 12, 17],
  [8, 13, 18],
  [9, 14, 19],
  [0, 7, 8],
  [1, 8, 9],
  [2, 5, 9],
  [3, 5, 6],
  [4, 6, 7],
  [0, 11, 19],
  [1, 10, 12],
  [2, 11, 13],
  [3, 12, 14],
  [4, 13, 15],
  [0, 14, 16],
  [1, 15, 17],
  [2, 16, 18],
  [3, 17, 19],
  [4, 10, 18],
])

/** A single chain 0 with no neighbours. */
export const SINGLETON_GRAPH: ChainGraph = graph([[]])

const networks: Record<NetworkName, Network> = withRules({
  mainnet01: {
    name: 'mainnet01',
    versionCode: 5,
    blockDelay: 30,
    genesisTime: 1572393660000000, // 2019-10-30T00:01:00Z, as in the real genesis headers
    graphs: [
      { height: 852054, graph: TWENTY_CHAIN_GRAPH },
      { height: 0, graph: PETERSEN_GRAPH },
    ],
  },
  testnet06: {
    name: 'testnet06',
    versionCode: 8,
    blockDelay: 30,
    genesisTime: 1771229700000000, // 2026-02-16T08:15:00Z, as in the real genesis headers
    graphs: [{ height: 0, graph: TWENTY_CHAIN_GRAPH }],
  },
  testnet04: {
    name: 'testnet04',
    versionCode: 7,
    blockDelay: 30,
    genesisTime: 1563388117613832, // 2019-07-17T18:28:37.613832Z, as in the real genesis headers
    graphs: [
      { height: 332604, graph: TWENTY_CHAIN_GRAPH },
      { height: 0, graph: PETERSEN_GRAPH },
    ],
  },
  'recap-development': {
    name: 'recap-development',
    versionCode: 1,
    blockDelay: 30,
    genesisTime: 1563388117613832, // as in the real genesis headers (testnet04's genesis time)
    graphs: [
      { height: 60, graph: TWENTY_CHAIN_GRAPH },
      { height: 0, graph: PETERSEN_GRAPH },
    ],
  },
  development: {
    name: 'development',
    versionCode: 2,
    blockDelay: 30,
    genesisTime: 1563388117613832, // the contract is silent (docs/wire/hashes.md, "Genesis blocks"): we reuse testnet04's genesis time
    graphs: [{ height: 0, graph: TWENTY_CHAIN_GRAPH }],
  },
  'test-singleton': {
    name: 'test-singleton',
    versionCode: 0x80000016,
    blockDelay: 1,
    genesisTime: 1563388117613832, // the contract is silent (docs/wire/hashes.md, "Genesis blocks"): we reuse testnet04's genesis time
    graphs: [{ height: 0, graph: SINGLETON_GRAPH }],
  },
})
for (const n of Object.values(networks)) Object.freeze(n)

// Each network with its rules (network-rules.ts keeps them apart from the graphs, as data of their own).
function withRules(list: Record<NetworkName, Omit<Network, 'rules'>>): Record<NetworkName, Network> {
  const entries = Object.entries(list).map(([name, network]) => [name, { ...network, rules: networkRules(name as NetworkName) }])
  return Object.fromEntries(entries) as Record<NetworkName, Network>
}

/** The network of that name; throws UnknownNetworkError (UNKNOWN_NETWORK) for any other name. */
export function getNetwork(name: NetworkName): Network {
  if (!Object.hasOwn(networks, name)) throw new UnknownNetworkError(String(name))
  return networks[name]
}

/** The network whose binary version code this is; throws UnknownNetworkError for an unknown code. */
export function networkOfVersionCode(code: number): Network {
  for (const n of Object.values(networks)) if (n.versionCode === code) return n
  throw new UnknownNetworkError(`version code ${code}`)
}

/** The chain graph in force at `height`. */
export function graphAt(network: Network, height: number): ChainGraph {
  for (const g of network.graphs) if (height >= g.height) return g.graph
  // Every network's oldest graph starts at height 0, so only a negative height lands here.
  return (network.graphs[network.graphs.length - 1] as { graph: ChainGraph }).graph
}

/** The chains of the graph in force at `height`, ascending. */
export function chainsAt(network: Network, height: number): number[] {
  return [...graphAt(network, height).keys()].sort((a, b) => a - b)
}

/** The height of `chain`'s genesis block: the start of the oldest graph that has it. Throws UnknownChainError. */
export function genesisHeight(network: Network, chain: number): number {
  for (let i = network.graphs.length - 1; i >= 0; i--) {
    const g = network.graphs[i] as { height: number; graph: ChainGraph }
    if (g.graph.has(chain)) return g.height
  }
  throw new UnknownChainError(network.name, chain)
}

/**
 * The chains a block at `height` on `chain` names in its adjacents, ascending; undefined if the chain
 * does not exist there. As the real node (Chainweb.BlockHeader.Validation): a genesis block uses the
 * graph at its own height, every other block the graph at its parent's height, so the first block
 * at a graph transition still braids with the old graph and the next one with the new.
 */
export function blockAdjacentChains(network: Network, chain: number, height: number): number[] | undefined {
  const genesis = graphAt(network, height).has(chain) && genesisHeight(network, chain) === height
  return adjacentChainsAt(network, chain, genesis ? height : height - 1)
}

/** The adjacent chains of `chain` in the graph in force at `height`, ascending; undefined if the chain does not exist there. */
export function adjacentChainsAt(network: Network, chain: number, height: number): number[] | undefined {
  const adjacents = graphAt(network, height).get(chain)
  return adjacents === undefined ? undefined : [...adjacents].sort((a, b) => a - b)
}
