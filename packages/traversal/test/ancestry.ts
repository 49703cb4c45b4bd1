import fc from 'fast-check'
import t from 'tap'
import type { HeaderRef, HeaderSource } from '../src/index.js'
import { ancestorAt, forkPoint, InconsistentSourceError, isAncestor } from '../src/index.js'
import type { BlockTree } from './fixtures/block-tree.js'
import { ancestorsOrSelf, buildTree, CountingSource, hashOf, JumpingSource, key, treeArbitrary } from './fixtures/block-tree.js'

// Two blocks of a tree, or of its other chain, or unknown: as hashes.
const pairArbitrary = treeArbitrary(120).chain((tree) => {
  const someHash = fc.oneof(
    { weight: 8, arbitrary: fc.nat().map((n) => (tree.blocks[n % tree.blocks.length] as HeaderRef).hash) },
    { weight: 1, arbitrary: fc.nat().map((n) => (tree.otherChain[n % tree.otherChain.length] as HeaderRef).hash) },
    { weight: 1, arbitrary: fc.nat().map((n) => hashOf(`unknown:${n}`)) },
  )
  return fc.tuple(someHash, someHash).map(([a, b]) => ({ tree, a, b }))
})

const refOf = (tree: BlockTree, hash: Uint8Array): HeaderRef | undefined => tree.source.get(hash)

t.test('ancestorAt finds the ancestor-or-self at a height, walking only the heights in between', async (t) => {
  await fc.assert(
    fc.asyncProperty(pairArbitrary, fc.nat({ max: 60 }), async ({ tree, a }, height) => {
      tree.source.reset()
      const found = await ancestorAt(tree.source, a, height)
      const expected = [...ancestorsOrSelf(tree, a)]
        .map((k) => tree.source.get(Buffer.from(k, 'hex')) as HeaderRef)
        .find((ref) => ref.height === height)
      const from = refOf(tree, a)
      const maxLookups = from === undefined ? 1 : 1 + Math.max(0, from.height - height)
      return found === expected && tree.source.lookups <= maxLookups
    }),
    { numRuns: 300 },
  )
  t.pass('every generated lookup matched the brute force')
})

t.test('isAncestor agrees with the ancestor sets, for blocks unknown or of other chains too', async (t) => {
  await fc.assert(
    fc.asyncProperty(pairArbitrary, async ({ tree, a, b }) => {
      tree.source.reset()
      const answer = await isAncestor(tree.source, a, b)
      const refA = refOf(tree, a)
      const refB = refOf(tree, b)
      const walked = refA !== undefined && refB !== undefined && refA.chainId === refB.chainId ? Math.max(0, refB.height - refA.height) : 0
      return answer === (refA !== undefined && ancestorsOrSelf(tree, b).has(key(a))) && tree.source.lookups <= 2 + walked
    }),
    { numRuns: 300 },
  )
  t.pass('every generated pair matched the brute force')
})

t.test('forkPoint is the highest common ancestor-or-self, found by walking down to it only', async (t) => {
  await fc.assert(
    fc.asyncProperty(pairArbitrary, async ({ tree, a, b }) => {
      tree.source.reset()
      const found = await forkPoint(tree.source, a, b)
      const ofB = ancestorsOrSelf(tree, b)
      const common = [...ancestorsOrSelf(tree, a)].filter((k) => ofB.has(k)).map((k) => tree.source.get(Buffer.from(k, 'hex')) as HeaderRef)
      const expected = common.sort((x, y) => y.height - x.height)[0]
      if (found !== expected) return false
      const refA = refOf(tree, a)
      const refB = refOf(tree, b)
      const walked =
        expected === undefined || refA === undefined || refB === undefined ? 0 : refA.height + refB.height - 2 * expected.height
      return expected === undefined || tree.source.lookups <= 2 + walked
    }),
    { numRuns: 300 },
  )
  t.pass('every generated pair matched the brute force')
})

t.test('a block is its own ancestor and fork point', async (t) => {
  const tree = buildTree(11, [0, 0, 0])
  const tip = tree.blocks[3] as HeaderRef
  t.ok(await isAncestor(tree.source, tip.hash, tip.hash))
  t.equal(await forkPoint(tree.source, tip.hash, tip.hash), tip)
  t.equal(await ancestorAt(tree.source, tip.hash, 3), tip)
  t.equal(await ancestorAt(tree.source, tip.hash, 0), tree.blocks[0])
  t.notOk(await isAncestor(tree.source, tip.hash, (tree.blocks[1] as HeaderRef).hash), 'a descendant is no ancestor')
})

t.test('heights that no block can have are answered without a lookup', async (t) => {
  const tree = buildTree(12, [0, 0])
  const tip = (tree.blocks[2] as HeaderRef).hash
  tree.source.reset()
  for (const height of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])
    t.equal(await ancestorAt(tree.source, tip, height), undefined, String(height))
  t.equal(tree.source.calls, 0)
  t.equal(await ancestorAt(tree.source, tip, 3), undefined, 'above the block')
  t.equal(await ancestorAt(tree.source, hashOf('unknown'), 0), undefined, 'an unknown block')
})

t.test('blocks of different chains share nothing and are not walked', async (t) => {
  const tree = buildTree(13, [0, 0, 0, 0])
  const a = (tree.blocks[4] as HeaderRef).hash
  const b = (tree.otherChain[4] as HeaderRef).hash
  tree.source.reset()
  t.equal(await forkPoint(tree.source, a, b), undefined)
  t.notOk(await isAncestor(tree.source, b, a))
  t.equal(tree.source.calls, 2, 'one batch each')
})

t.test('two lines that never meet, or a gap in the source, have no fork point', async (t) => {
  const line = (name: string, length: number): HeaderRef[] =>
    Array.from({ length }, (_, height) => ({
      hash: hashOf(`${name}:${height}`),
      parent: hashOf(`${name}:${height - 1}`),
      height,
      chainId: 0,
    }))
  const [x, y] = [line('x', 6), line('y', 4)]
  const source = new CountingSource([...x, ...y])
  t.equal(await forkPoint(source, (x[5] as HeaderRef).hash, (y[3] as HeaderRef).hash), undefined)
  const gapped = new CountingSource(x.filter((ref) => ref.height !== 2))
  t.equal(await ancestorAt(gapped, (x[5] as HeaderRef).hash, 1), undefined)
  t.notOk(await isAncestor(gapped, (x[0] as HeaderRef).hash, (x[5] as HeaderRef).hash))
})

t.test('a source whose parents are not below their children, or whose batches are short, is reported', async (t) => {
  const a: HeaderRef = { hash: hashOf('a'), parent: hashOf('b'), height: 5, chainId: 0 }
  const b: HeaderRef = { hash: hashOf('b'), parent: hashOf('a'), height: 5, chainId: 0 }
  const c: HeaderRef = { hash: hashOf('c'), parent: hashOf('b'), height: 6, chainId: 0 }
  const looping = new CountingSource([a, b, c])
  await t.rejects(ancestorAt(looping, c.hash, 0), InconsistentSourceError)
  await t.rejects(forkPoint(looping, a.hash, c.hash), { code: 'INCONSISTENT_SOURCE' }, 'walking the higher block')
  const d: HeaderRef = { hash: hashOf('d'), parent: hashOf('b'), height: 5, chainId: 0 }
  const withD = new CountingSource([a, b, d])
  await t.rejects(forkPoint(withD, a.hash, d.hash), { code: 'INCONSISTENT_SOURCE' }, 'walking both at one height')
  const short: HeaderSource = { getRefs: async () => [] }
  await t.rejects(isAncestor(short, a.hash, b.hash), { code: 'INCONSISTENT_SOURCE', message: /answer 2 entries, received 0/ })
})

// A line of `length` blocks of chain 0 named `name`, heights from 0.
const line = (name: string, length: number, parent = hashOf(`${name}:root-parent`), from = 0): HeaderRef[] =>
  Array.from({ length }, (_, offset) => ({
    hash: hashOf(`${name}:${from + offset}`),
    parent: offset === 0 ? parent : hashOf(`${name}:${from + offset - 1}`),
    height: from + offset,
    chainId: 0,
  }))

t.test('a source with ancestorAt answers ancestorAt, isAncestor and levelling in forkPoint in one call each', async (t) => {
  const main = line('main', 100)
  const fork = line('fork', 10, (main[79] as HeaderRef).hash, 80)
  const source = new JumpingSource([...main, ...fork])
  const [tip, forkTip] = [main.at(-1) as HeaderRef, fork.at(-1) as HeaderRef]
  t.equal(await ancestorAt(source, tip.hash, 3), main[3])
  t.same([source.jumps, source.calls], [1, 0], 'no getRefs at all')
  source.reset()
  t.ok(await isAncestor(source, (main[5] as HeaderRef).hash, tip.hash))
  t.same([source.jumps, source.calls], [1, 1], 'one batch for both blocks, one jump')
  source.reset()
  t.equal(await forkPoint(source, tip.hash, forkTip.hash), main[79])
  t.equal(source.jumps, 1, 'the higher tip comes down in one call')
  t.ok(source.lookups <= 2 + 2 * 10, `then both step together: ${source.lookups} lookups`)
  source.reset()
  t.equal(await forkPoint(source, forkTip.hash, tip.hash), main[79], 'whichever tip is higher')
  t.equal(source.jumps, 1)
  t.equal(await ancestorAt(source, tip.hash, -1), undefined)
})

t.test('forkPoint still steps when ancestorAt has no block at the other height (a line that skips heights)', async (t) => {
  const root: HeaderRef = { hash: hashOf('root'), parent: hashOf('none'), height: 0, chainId: 0 }
  const skipping: HeaderRef = { hash: hashOf('skip'), parent: root.hash, height: 10, chainId: 0 }
  const stepping = line('step', 5, root.hash, 1)
  const source = new JumpingSource([root, skipping, ...stepping])
  t.equal(await forkPoint(source, skipping.hash, (stepping[1] as HeaderRef).hash), root)
  t.equal(await forkPoint(source, (stepping[1] as HeaderRef).hash, skipping.hash), root)
})

t.test('an ancestorAt answer at another height than asked is reported', async (t) => {
  const main = line('liar', 20)
  const source = new JumpingSource(main)
  source.ancestorAt = async () => main[2]
  await t.rejects(ancestorAt(source, (main[19] as HeaderRef).hash, 5), {
    code: 'INCONSISTENT_SOURCE',
    message: /height 5, received height 2/,
  })
  await t.rejects(isAncestor(source, (main[5] as HeaderRef).hash, (main[19] as HeaderRef).hash), { code: 'INCONSISTENT_SOURCE' })
  await t.rejects(forkPoint(source, (main[5] as HeaderRef).hash, (main[19] as HeaderRef).hash), { code: 'INCONSISTENT_SOURCE' })
})
