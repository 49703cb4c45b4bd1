import { type NetworkName, networkNames } from '@weft/types'
import t from 'tap'
import {
  adjacentChainsAt,
  allChains,
  blockAdjacentChains,
  chainsAt,
  genesisHeight,
  getNetwork,
  graphAt,
  type Network,
  networkOfVersionCode,
  PETERSEN_GRAPH,
  TWENTY_CHAIN_GRAPH,
} from '../src/index.js'

const names: NetworkName[] = ['mainnet01', 'testnet06', 'testnet04', 'recap-development', 'development', 'test-singleton']

t.test("every network name of @weft/types has its network, in the contract's order", async (t) => {
  t.same(networkNames, names)
  t.same(
    networkNames.map((name) => getNetwork(name).name),
    names,
  )
})

t.test('every network has its version code, block delay and a graph history starting at 0', async (t) => {
  t.same(
    names.map((n) => getNetwork(n).versionCode),
    [5, 8, 7, 1, 2, 0x80000016],
  )
  t.same(
    names.map((n) => getNetwork(n).blockDelay),
    [30, 30, 30, 30, 30, 1],
  )
  for (const n of names) {
    const graphs = getNetwork(n).graphs
    t.equal(graphs[graphs.length - 1]?.height, 0, n)
    t.equal(networkOfVersionCode(getNetwork(n).versionCode).name, n)
  }
  t.equal(getNetwork('mainnet01').genesisTime, 1572393660000000)
})

t.test('an unknown network name or version code is refused', async (t) => {
  t.throws(() => getNetwork('mainnet02' as NetworkName), { code: 'UNKNOWN_NETWORK', name: 'UnknownNetworkError' })
  t.throws(() => getNetwork('toString' as NetworkName), { code: 'UNKNOWN_NETWORK' })
  t.throws(() => networkOfVersionCode(3), { code: 'UNKNOWN_NETWORK' })
})

t.test('both graphs are undirected, of degree 3, without self loops', async (t) => {
  for (const g of [PETERSEN_GRAPH, TWENTY_CHAIN_GRAPH]) {
    for (const [chain, adjacents] of g) {
      t.equal(adjacents.length, 3)
      t.notOk(adjacents.includes(chain))
      for (const a of adjacents) t.ok(g.get(a)?.includes(chain), `${chain}-${a}`)
    }
  }
  t.equal(PETERSEN_GRAPH.size, 10)
  t.equal(TWENTY_CHAIN_GRAPH.size, 20)
})

t.test('mainnet switches from the Petersen graph to twenty chains at 852054', async (t) => {
  const m = getNetwork('mainnet01')
  t.equal(graphAt(m, 852053), PETERSEN_GRAPH)
  t.equal(graphAt(m, 852054), TWENTY_CHAIN_GRAPH)
  t.equal(graphAt(m, -1), PETERSEN_GRAPH, 'a negative height gets the oldest graph')
  t.same(chainsAt(m, 0), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
  t.same(
    chainsAt(m, 852054),
    Array.from({ length: 20 }, (_, i) => i),
  )
  t.same(adjacentChainsAt(m, 0, 852053), [2, 3, 5])
  t.same(adjacentChainsAt(m, 0, 852054), [5, 10, 15])
  t.equal(adjacentChainsAt(m, 10, 852053), undefined)
  t.equal(genesisHeight(m, 0), 0)
  t.equal(genesisHeight(m, 19), 852054)
  t.equal(genesisHeight(getNetwork('testnet04'), 10), 332604)
})

t.test('testnet06 has twenty chains from 0; recap-development switches to twenty at 60', async (t) => {
  const t6 = getNetwork('testnet06')
  t.equal(graphAt(t6, 0), TWENTY_CHAIN_GRAPH)
  t.equal(genesisHeight(t6, 19), 0)
  t.equal(t6.genesisTime, Date.parse('2026-02-16T08:15:00Z') * 1000)
  const recap = getNetwork('recap-development')
  t.equal(graphAt(recap, 59), PETERSEN_GRAPH)
  t.equal(graphAt(recap, 60), TWENTY_CHAIN_GRAPH)
  t.equal(genesisHeight(recap, 9), 0)
  t.equal(genesisHeight(recap, 10), 60)
  t.same(adjacentChainsAt(recap, 10, 60), [0, 11, 19])
})

t.test("a block braids with the graph at its parent's height, a genesis block with its own", async (t) => {
  const recap = getNetwork('recap-development')
  t.same(blockAdjacentChains(recap, 0, 60), [2, 3, 5], 'the first block at the transition keeps the old graph')
  t.same(blockAdjacentChains(recap, 0, 61), [5, 10, 15], 'the next braids with the new chains')
  t.same(blockAdjacentChains(recap, 10, 60), [0, 11, 19], 'a genesis block at the transition uses the new graph')
  t.same(blockAdjacentChains(recap, 10, 61), [0, 11, 19])
  t.equal(blockAdjacentChains(recap, 10, 59), undefined, 'no chain 10 below its genesis')
  const main = getNetwork('mainnet01')
  t.same(blockAdjacentChains(main, 0, 852054), [2, 3, 5])
  t.same(blockAdjacentChains(main, 0, 0), [2, 3, 5])
  t.same(blockAdjacentChains(main, 15, 852055), [0, 14, 16])
})

t.test('development has twenty chains from 0 and test-singleton only chain 0', async (t) => {
  const d = getNetwork('development')
  const s = getNetwork('test-singleton')
  t.equal(genesisHeight(d, 19), 0)
  t.same(
    allChains(d),
    Array.from({ length: 20 }, (_, i) => i),
  )
  t.same(chainsAt(s, 1000), [0])
  t.same(adjacentChainsAt(s, 0, 5), [])
  t.throws(() => genesisHeight(s, 1), { code: 'UNKNOWN_CHAIN' })
})

t.test("networks are frozen so no caller can change another caller's view", async (t) => {
  const m: Network = getNetwork('mainnet01')
  t.ok(Object.isFrozen(m))
  t.ok(Object.isFrozen(PETERSEN_GRAPH.get(0)))
})
