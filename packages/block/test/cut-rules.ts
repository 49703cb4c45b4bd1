import { readFileSync } from 'node:fs'
import t from 'tap'
import {
  CHAINWEB_NODE_CHAIN_ORDER,
  cutChains,
  cutHeightLimit,
  getNetwork,
  HASH_MAP_CHAIN_ORDER,
  inChainwebNodeOrder,
  inHashMapOrder,
} from '../src/index.js'

const vectors = JSON.parse(readFileSync(new URL('../../../fixtures/vectors/cut-and-info.json', import.meta.url), 'utf8')) as {
  hashMapOrder: { petersenChainGraph: Array<[number, number[]]>; twentyChainGraph: Array<[number, number[]]> }
  mainnet01: { maxheight: Array<{ maxheight: number; blockHeight: number; chains: number }> }
}
const mainnet = getNetwork('mainnet01')
const recap = getNetwork('recap-development')
const heights = (entries: Array<[number, number]>): Map<number, number> => new Map(entries)
const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, i) => from + i)

t.test("chain ids come in chainweb-node's order (its hash maps'), every subset in the same relative order", async (t) => {
  t.same(
    CHAINWEB_NODE_CHAIN_ORDER,
    vectors.hashMapOrder.twentyChainGraph.map(([chain]) => chain),
  )
  t.same(
    inChainwebNodeOrder(range(0, 10)),
    vectors.hashMapOrder.petersenChainGraph.map(([chain]) => chain),
  )
  for (const [, adjacents] of [...vectors.hashMapOrder.petersenChainGraph, ...vectors.hashMapOrder.twentyChainGraph]) {
    t.same(inChainwebNodeOrder([...adjacents].sort((a, b) => a - b)), adjacents)
  }
  t.same(inChainwebNodeOrder([21, 0, 20, 16]), [16, 0, 20, 21], 'chains the node never has come last, ascending')
})

t.test('the former names, HASH_MAP_CHAIN_ORDER and inHashMapOrder, are the same order and function', async (t) => {
  t.equal(HASH_MAP_CHAIN_ORDER, CHAINWEB_NODE_CHAIN_ORDER)
  t.equal(inHashMapOrder, inChainwebNodeOrder)
})

t.test('a cut holds the chains of the graph at its lowest head', async (t) => {
  const genesis = heights([
    ...range(0, 10).map((c): [number, number] => [c, 0]),
    ...range(10, 20).map((c): [number, number] => [c, 852054]),
  ])
  t.same(cutChains(mainnet, genesis), range(0, 10), 'a genesis-only mainnet01 store has ten chains')
  const almost = new Map(genesis)
  for (const c of range(0, 10)) almost.set(c, 852054)
  almost.set(3, 852053)
  t.same(cutChains(mainnet, almost), range(0, 10), 'one old chain below the transition keeps the new ones out')
  almost.set(3, 852054)
  t.same(cutChains(mainnet, almost), range(0, 20), 'all at the transition: twenty chains')
  almost.set(12, 852070)
  t.same(cutChains(mainnet, almost), range(0, 20))
  t.same(cutChains(recap, heights(range(0, 20).map((c) => [c, c < 10 ? 61 : 60]))), range(0, 20))
  t.same(cutChains(recap, heights(range(0, 10).map((c) => [c, 80]))), range(0, 10), 'new chains without heads stay out')
  t.same(
    cutChains(
      getNetwork('development'),
      heights([
        [0, 5],
        [19, 2],
      ]),
    ),
    [0, 19],
  )
  t.same(cutChains(mainnet, new Map()), [])
})

t.test('a cut height limits heads to the block heights the real node uses', async (t) => {
  t.ok(vectors.mainnet01.maxheight.length >= 10)
  for (const { maxheight, blockHeight } of vectors.mainnet01.maxheight)
    t.equal(cutHeightLimit(mainnet, maxheight), blockHeight, `maxheight ${maxheight}`)
  t.equal(cutHeightLimit(getNetwork('development'), 39), 1)
  t.equal(cutHeightLimit(getNetwork('test-singleton'), 7), 7)
  t.equal(cutHeightLimit(recap, 1199), 119)
  t.equal(cutHeightLimit(recap, 1200), 60)
})
