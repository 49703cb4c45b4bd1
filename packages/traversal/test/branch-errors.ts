import t from 'tap'
import type { BranchOptions, HeaderRef, HeaderSource } from '../src/index.js'
import { branch, InconsistentSourceError, TooManyBoundsError, TraversalError, UnknownBoundError } from '../src/index.js'
import { buildTree, CountingSource, hashOf, key } from './fixtures/block-tree.js'

// The queries branch refuses, and the sources it reports: each a typed error, raised on the first next().

async function collect(source: HeaderSource, options: BranchOptions): Promise<HeaderRef[]> {
  const result: HeaderRef[] = []
  for await (const ref of branch(source, options)) result.push(ref)
  return result
}

const keys = (refs: readonly HeaderRef[]): string[] => refs.map((ref) => key(ref.hash))

t.test('more than 32 distinct bounds on a side are refused, duplicates do not count', async (t) => {
  const hashes = Array.from({ length: 33 }, (_, n) => hashOf(`bound:${n}`))
  const source = new CountingSource([])
  const tooManyUpper = await t.rejects(collect(source, { chain: 0, upper: hashes, lower: [] }), TooManyBoundsError)
  t.match(tooManyUpper, { code: 'TOO_MANY_BOUNDS', side: 'upper', count: 33, max: 32 })
  await t.rejects(collect(source, { chain: 0, upper: [], lower: hashes }), { code: 'TOO_MANY_BOUNDS', side: 'lower' })
  const repeated = [...hashes.slice(0, 32), ...hashes.slice(0, 32)]
  t.same(await collect(source, { chain: 0, upper: [], lower: repeated }), [], '64 entries naming 32 blocks are fine')
  await t.rejects(collect(source, { chain: 0, upper: [], lower: hashes.slice(0, 3), maxBounds: 2 }), { code: 'TOO_MANY_BOUNDS', max: 2 })
  t.equal(source.calls, 1, 'refused queries look nothing up')
})

t.test('an upper bound that is unknown or on another chain is a typed error naming it, raised on the first next', async (t) => {
  const tree = buildTree(4, [0, 0])
  const missing = hashOf('missing')
  const iterator = branch(tree.source, { chain: 0, upper: [(tree.blocks[1] as HeaderRef).hash, missing], lower: [] })
  const error = await t.rejects(iterator.next(), UnknownBoundError)
  t.ok(error instanceof TraversalError)
  t.match(error, { code: 'BLOCK_NOT_FOUND', hash: missing, message: new RegExp(missing.toString('base64url')) })
  const other = (tree.otherChain[0] as HeaderRef).hash
  await t.rejects(collect(tree.source, { chain: 0, upper: [other], lower: [] }), { code: 'BLOCK_NOT_FOUND', hash: other })
  t.same(keys(await collect(tree.source, { chain: 1, upper: [other], lower: [] })), [key(other)], 'on its own chain it is found')
})

t.test('a source answering a batch of the wrong length, or a parent not below its child, is reported', async (t) => {
  const tree = buildTree(5, [0, 0])
  const short: HeaderSource = { getRefs: async (hashes) => (await tree.source.getRefs(hashes)).slice(1) }
  await t.rejects(collect(short, { chain: 0, upper: [(tree.blocks[2] as HeaderRef).hash], lower: [] }), InconsistentSourceError)
  const looping = new CountingSource([
    { hash: hashOf('a'), parent: hashOf('b'), height: 3, chainId: 0 },
    { hash: hashOf('b'), parent: hashOf('a'), height: 3, chainId: 0 },
  ])
  await t.rejects(collect(looping, { chain: 0, upper: [hashOf('a')], lower: [] }), { code: 'INCONSISTENT_SOURCE', message: /height 3/ })
})
