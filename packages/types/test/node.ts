import { Value } from '@sinclair/typebox/value'
import t from 'tap'
import { BlockQuery, BranchBounds, Cut, CutQuery, KeyNotFound, NodeInfo, Problem } from '../src/index.js'

const hash = 'k0an0qEORusqQg9ZjKrxa-0Bo0-hQVYLXqWi5LHxg3k'

t.test('node info as the real node sends it matches, in both profiles', async (t) => {
  const info = {
    nodeApiVersion: '0.0',
    nodeBlockDelay: 30000000,
    nodeChains: ['0', '1'],
    nodeGenesisHeights: [
      ['0', 0],
      ['1', 0],
    ],
    nodeGraphHistory: [
      [
        0,
        [
          [0, [1]],
          [1, [0]],
        ],
      ],
    ],
    nodeHistoricalChains: [
      [
        0,
        [
          [0, [1]],
          [1, [0]],
        ],
      ],
    ],
    nodeLatestBehaviorHeight: 0,
    nodeNumberOfChains: 2,
    nodePackageVersion: '2.19',
    nodeServiceDate: '2023-06-07T00:00:00Z',
    nodeVersion: 'mainnet01',
  }
  t.ok(Value.Check(NodeInfo, info))
  t.ok(Value.Check(NodeInfo, { ...info, nodeServiceDate: null }))
  const { nodeServiceDate: _, ...release32 } = info
  t.ok(Value.Check(NodeInfo, release32), 'release 3.2 has no service date')
  t.notOk(Value.Check(NodeInfo, { ...info, nodeVersion: 'mainnet02' }))
  t.notOk(Value.Check(NodeInfo, { ...info, nodeServiceDate: 'June 7' }))
})

t.test('branch bounds allow missing, null and padded hashes', async (t) => {
  t.ok(Value.Check(BranchBounds, {}))
  t.ok(Value.Check(BranchBounds, { lower: null, upper: [hash, `${hash}=`] }))
  t.notOk(Value.Check(BranchBounds, { upper: ['short'] }))
  t.notOk(Value.Check(BranchBounds, { upper: hash }))
  t.notOk(Value.Check(BranchBounds, [hash]), 'an array is no bounds object')
})

t.test('block queries arrive as strings', async (t) => {
  t.ok(Value.Check(BlockQuery, { limit: '10', next: `inclusive:${hash}`, minheight: '0', maxheight: '5' }))
  t.ok(Value.Check(BlockQuery, {}))
  t.notOk(Value.Check(BlockQuery, { limit: 10 }))
  t.notOk(Value.Check(BlockQuery, { minheight: '-1' }))
  t.notOk(Value.Check(BlockQuery, { next: 'inclusive:abc' }))
  t.notOk(Value.Check(BlockQuery, { limit: ['1', '2'] }), 'a repeated parameter is malformed')
  t.ok(Value.Check(BlockQuery, { other: 'x' }), 'other parameters are ignored')
  t.same(Object.keys(BlockQuery.properties), ['limit', 'minheight', 'maxheight', 'next'])
  t.ok(Value.Check(CutQuery, { maxheight: '100' }))
  t.notOk(Value.Check(CutQuery, { maxheight: '-5' }))
})

t.test('a cut names each chain head, its weight, height and id', async (t) => {
  const cut = { hashes: { '0': { height: 5, hash } }, origin: null, weight: hash, height: 5, instance: 'development', id: hash }
  t.ok(Value.Check(Cut, cut))
  t.notOk(Value.Check(Cut, { ...cut, origin: {} }))
  t.notOk(Value.Check(Cut, { ...cut, hashes: { zero: { height: 5, hash } } }))
})

t.test('problem bodies carry a stable upper-case code', async (t) => {
  const problem = { type: 'about:blank', title: 'Not Found', status: 404, detail: 'No block matches the query', code: 'NO_MATCHING_BLOCKS' }
  t.ok(Value.Check(Problem, problem))
  t.notOk(Value.Check(Problem, { ...problem, code: 'lower' }))
  t.notOk(Value.Check(Problem, { ...problem, status: 200 }))
  t.ok(Value.Check(KeyNotFound, { key: hash, reason: 'key not found' }))
})
