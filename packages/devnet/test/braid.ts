import type { ChainGraph } from '@weft/block'
import fc from 'fast-check'
import t from 'tap'
import { Braid, type BraidBlock } from '../src/braid.js'

// The graphs of docs/wire/hashes.md ("Networks and chain graphs"), written out here independently of @weft/block.
const twenty: ChainGraph = new Map(
  Object.entries({
    0: [5, 10, 15],
    1: [6, 11, 16],
    2: [7, 12, 17],
    3: [8, 13, 18],
    4: [9, 14, 19],
    5: [0, 7, 8],
    6: [1, 8, 9],
    7: [2, 5, 9],
    8: [3, 5, 6],
    9: [4, 6, 7],
    10: [0, 11, 19],
    11: [1, 10, 12],
    12: [2, 11, 13],
    13: [3, 12, 14],
    14: [4, 13, 15],
    15: [0, 14, 16],
    16: [1, 15, 17],
    17: [2, 16, 18],
    18: [3, 17, 19],
    19: [4, 10, 18],
  }).map(([k, v]) => [Number(k), v]),
)
const single: ChainGraph = new Map([[0, []]])
// One graph at every height: a block names its chain's neighbours in it.
const inGraph = (graph: ChainGraph) => (chain: number) => graph.get(chain)

const block = (chainId: number, height: number): BraidBlock => ({ chainId, height, hash: Buffer.from([chainId, height & 0xff]) })
const genesisHeads = (graph: ChainGraph) => new Map([...graph.keys()].map((c) => [c, [block(c, 0)]]))

t.test("at genesis every chain may grow and names its neighbours' genesis blocks", async (t) => {
  const braid = new Braid(inGraph(twenty), genesisHeads(twenty))
  t.same(braid.advanceable(), [...Array(20).keys()])
  const adjacents = braid.nextAdjacents(8)
  t.same(
    adjacents?.map(([c, b]) => [c, b.height]),
    [
      [3, 0],
      [5, 0],
      [6, 0],
    ],
  )
})

t.test('a chain may not grow past a neighbour that is behind it', async (t) => {
  const braid = new Braid(inGraph(twenty), genesisHeads(twenty))
  braid.advance(block(0, 1))
  t.notOk(braid.canAdvance(0), 'chain 0 at height 1 waits for 5, 10 and 15')
  t.equal(braid.nextAdjacents(0), undefined)
  braid.advance(block(5, 1))
  braid.advance(block(10, 1))
  t.notOk(braid.canAdvance(0))
  braid.advance(block(15, 1))
  t.ok(braid.canAdvance(0))
  t.same(
    braid.nextAdjacents(0)?.map(([c, b]) => [c, b.height]),
    [
      [5, 1],
      [10, 1],
      [15, 1],
    ],
  )
  t.same(
    braid.nextAdjacents(5)?.map(([c, b]) => [c, b.height]),
    undefined,
    'chain 5 waits for 7 and 8',
  )
})

t.test('the adjacent of a neighbour one height ahead is its block one below its head', async (t) => {
  const braid = new Braid(inGraph(twenty), genesisHeads(twenty))
  for (const c of [0, 5, 10, 15]) braid.advance(block(c, 1))
  braid.advance(block(0, 2))
  t.same(braid.nextAdjacents(5), undefined)
  braid.advance(block(7, 1))
  braid.advance(block(8, 1))
  const adjacents = braid.nextAdjacents(5)
  t.same(
    adjacents?.map(([c, b]) => [c, b.height]),
    [
      [0, 1],
      [7, 1],
      [8, 1],
    ],
  )
  t.equal(braid.winnerAt(0, 2)?.height, 2)
  t.equal(braid.winnerAt(0, 3), undefined)
  t.equal(braid.winnerAt(42, 0), undefined)
})

t.test('a single chain with no neighbours grows freely', async (t) => {
  const braid = new Braid(inGraph(single), genesisHeads(single))
  for (let h = 1; h <= 10; h++) {
    t.same(braid.nextAdjacents(0), [])
    braid.advance(block(0, h))
  }
  t.equal(braid.head(0)?.height, 10)
  t.equal(braid.winnerAt(0, 5), undefined, 'old blocks leave the window')
  t.equal(braid.winnerAt(0, 7)?.height, 7)
})

t.test('a chain missing from the graph in force at the next height may not grow', async (t) => {
  const braid = new Braid((chain, height) => (height < 1 ? twenty : single).get(chain), genesisHeads(twenty))
  t.same(braid.advanceable(), [0])
  t.equal(braid.head(99), undefined)
  t.equal(braid.nextAdjacents(99), undefined)
  t.same(braid.neighbours(3, 5), [], 'a chain outside the graph has no neighbours')
})

t.test('a head that is not the next height is refused', async (t) => {
  const braid = new Braid(
    inGraph(single),
    new Map([
      [0, [block(0, 0)]],
      [1, []],
    ]),
  )
  t.same(braid.chains(), [0], 'an empty window is ignored')
  t.throws(() => braid.advance(block(0, 2)), {
    code: 'CHAIN_NOT_READY',
    chainId: 0,
    message: 'Expected a block at height 1 on chain 0, received height 2',
  })
  t.throws(() => braid.advance(block(3, 1)), {
    code: 'CHAIN_NOT_READY',
    message: 'Expected a block at height ? on chain 3, received height 1',
  })
})

t.test('growing any advanceable chain keeps neighbours within one height and never deadlocks', async (t) => {
  fc.assert(
    fc.property(fc.array(fc.nat(), { minLength: 1, maxLength: 300 }), (choices) => {
      const braid = new Braid(inGraph(twenty), genesisHeads(twenty), 3)
      for (const choice of choices) {
        const ready = braid.advanceable()
        if (ready.length === 0) return false
        const chain = ready[choice % ready.length]!
        const adjacents = braid.nextAdjacents(chain)!
        const height = braid.head(chain)!.height + 1
        if (adjacents.some(([, b]) => b.height !== height - 1)) return false
        braid.advance(block(chain, height))
        for (const [c, neighbours] of twenty) {
          for (const n of neighbours) {
            if (Math.abs(braid.head(c)!.height - braid.head(n)!.height) > 1) return false
          }
        }
      }
      return true
    }),
  )
  t.pass('property held')
})

t.test('at a graph transition no chain passes its height before every chain of the old graph reaches it', async (t) => {
  // Chains 0-1-2 in a line up to height 3; then chain 3, which starts at 3, closes the ring.
  const before: ChainGraph = new Map([
    [0, [1]],
    [1, [0, 2]],
    [2, [1]],
  ])
  const after: ChainGraph = new Map([
    [0, [1, 3]],
    [1, [0, 2]],
    [2, [1, 3]],
    [3, [0, 2]],
  ])
  // As the real node: a block braids with the graph at its parent's height, a genesis block with its own.
  const neighboursAt = (chain: number, height: number) => (chain === 3 && height === 3 ? after : height - 1 < 3 ? before : after).get(chain)
  const transition = [{ height: 3, chains: [0, 1, 2] }]
  const heads = new Map([...[0, 1, 2].map((chain) => [chain, [block(chain, 0)]] as const), [3, [block(3, 3)]]])
  const braid = new Braid(neighboursAt, heads, 4, transition)
  for (let height = 1; height <= 2; height++) for (const chain of [0, 1, 2]) braid.advance(block(chain, height))
  braid.advance(block(1, 3))
  braid.advance(block(0, 3))
  t.ok(braid.nextAdjacents(2), 'chain 2 may reach the transition height')
  t.same(braid.advanceable(), [2], 'chain 0 braids with 1 and 3 at height 3, but waits for chain 2 to reach it; so does chain 3')
  t.equal(new Braid(neighboursAt, braidHeads(braid), 4).canAdvance(0), true, 'without the transition rule chain 0 would pass it')
  braid.advance(block(2, 3))
  t.same(braid.advanceable(), [0, 1, 2, 3], 'every old chain at the transition height: all may grow')
  const unknown = new Braid(neighboursAt, braidHeads(braid), 4, [{ height: 3, chains: [0, 1, 2, 7] }])
  t.same(unknown.advanceable(), [], 'a transition waits for a chain the braid does not know')
  t.same(
    braid.nextAdjacents(0)?.map(([c, b]) => [c, b.height]),
    [
      [1, 3],
      [3, 3],
    ],
    "the first block above the transition names the new chain's genesis block",
  )
})

// The windows of a braid's chains, for a second braid over the same blocks.
function braidHeads(braid: Braid<BraidBlock>): Map<number, BraidBlock[]> {
  return new Map(braid.chains().map((chain) => [chain, [braid.head(chain)!]]))
}
