import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { isAncestorSource } from '../header-source.js'
import { agreementTests } from './agreement.js'
import { type HeaderSourceFactory, plain, type RegisterTest, withSource } from './context.js'

export type { BuiltHeaderSource, HeaderSourceFactory, RegisterTest } from './context.js'
export { refsOfTree, suiteTree, type TreeBlock } from './tree.js'

const unknown = (name: string): Buffer => createHash('sha256').update(`weft-suite-unknown:${name}`).digest()

/**
 * Registers, through `test`, the tests of the `HeaderSource` contract against sources that `build`
 * makes, one per test: answers in the order asked, one per hash, `undefined` for unknown hashes,
 * parents on their child's chain below it, hashes of any chain in one batch, and the traversals
 * agreeing with the tree. A source that offers `ancestorAt` (an `AncestorSource`) is held to it too.
 */
export function headerSourceSuite(test: RegisterTest, build: HeaderSourceFactory): void {
  test('getRefs answers every block with its hash, parent, height and chain, in the order asked', () =>
    withSource(build, async ({ source, refs }) => {
      const asked = [...refs].reverse()
      const answers = await source.getRefs(asked.map((ref) => ref.hash))
      assert.deepEqual(answers.map(plain), asked.map(plain))
    }))

  test('an unknown hash is answered undefined in its place', () =>
    withSource(build, async ({ source, refs }) => {
      const [first, last] = [refs[0]!, refs.at(-1)!]
      const answers = await source.getRefs([unknown('a'), first.hash, unknown('b'), last.hash, unknown('c')])
      assert.deepEqual(answers.map(plain), [undefined, plain(first), undefined, plain(last), undefined])
      assert.deepEqual(await source.getRefs([unknown('alone')]), [undefined])
    }))

  test('an answer has one entry per hash asked: a repeated hash twice, an empty batch none', () =>
    withSource(build, async ({ source, refs }) => {
      assert.deepEqual(await source.getRefs([]), [])
      const block = refs[5]!
      const answers = await source.getRefs([block.hash, block.hash, unknown('x'), block.hash])
      assert.equal(answers.length, 4)
      assert.deepEqual(answers.map(plain), [plain(block), plain(block), undefined, plain(block)])
    }))

  test("a block's parent is answered on the same chain, below it; a root's parent is unknown", () =>
    withSource(build, async ({ source, tree, refs }) => {
      const answers = await source.getRefs(refs.map((ref) => ref.parent))
      tree.forEach((block, index) => {
        const child = refs[index]!
        const parent = answers[index]
        if (block.parent === undefined) {
          assert.equal(parent, undefined, `the parent of root ${index} is unknown`)
          return
        }
        assert.deepEqual(plain(parent), plain(refs[block.parent]), `the parent of block ${index}`)
        assert.equal(parent!.chainId, child.chainId)
        assert.ok(parent!.height < child.height, `the parent of block ${index} is below it`)
      })
    }))

  test('one batch may mix blocks of every chain, and hashes may be plain Uint8Arrays', () =>
    withSource(build, async ({ source, tree, refs }) => {
      const chains = [...new Set(tree.map((block) => block.chain))]
      const picked = chains.flatMap((chain) => refs.filter((ref) => ref.chainId === chain).slice(-2))
      const answers = await source.getRefs(picked.map((ref) => new Uint8Array(ref.hash)))
      assert.deepEqual(answers.map(plain), picked.map(plain))
      assert.deepEqual(
        answers.map((ref) => ref?.chainId),
        picked.map((ref) => ref.chainId),
      )
    }))

  test('ancestorAt, when the source offers it, answers the ancestor-or-self at each height, else undefined', () =>
    withSource(build, async ({ source, tree, refs, ancestorIndexAt }) => {
      if (!isAncestorSource(source)) return
      // Every leaf (tips, orphans, siblings) near its own height and at the bottom; the highest at every height.
      const parents = new Set(tree.map((block) => block.parent))
      const leaves = tree.flatMap((_, index) => (parents.has(index) ? [] : [index]))
      const highest = leaves.reduce((best, index) => (refs[index]!.height > refs[best]!.height ? index : best))
      for (const index of leaves) {
        const from = refs[index]!
        const heights =
          index === highest
            ? Array.from({ length: from.height + 2 }, (_, height) => height)
            : [0, 1, from.height - 1, from.height, from.height + 1]
        for (const height of heights.filter((height) => height >= 0)) {
          const expected = ancestorIndexAt(index, height)
          const found = await source.ancestorAt(from.hash, height)
          assert.deepEqual(plain(found), plain(expected === undefined ? undefined : refs[expected]), `block ${index} at height ${height}`)
        }
      }
      const tip = refs[highest]!.hash
      for (const height of [-1, 0.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])
        assert.equal(await source.ancestorAt(tip, height), undefined, `height ${height}`)
      assert.equal(await source.ancestorAt(unknown('block'), 0), undefined, 'an unknown block')
    }))

  agreementTests(test, build)
}
