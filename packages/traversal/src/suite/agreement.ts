import assert from 'node:assert/strict'
import { ancestorAt, forkPoint, isAncestor } from '../ancestry.js'
import { branch } from '../branch.js'
import type { HeaderRef } from '../header-source.js'
import { type HeaderSourceFactory, plain, type RegisterTest, type SuiteContext, withSource } from './context.js'

// The indexes of block `index` and all its ancestors in the tree.
function lineage(context: SuiteContext, index: number): Set<number> {
  const found = new Set<number>()
  for (let at: number | undefined = index; at !== undefined; at = context.tree[at]!.parent) found.add(at)
  return found
}

// Every seventh block of chain 0, and the last one: pairs of these cover forks, lines and equal blocks.
function sample(context: SuiteContext): number[] {
  const onChain0 = context.tree.flatMap((block, index) => (block.chain === 0 ? [index] : []))
  return [...onChain0.filter((_, at) => at % 7 === 0), onChain0.at(-1)!]
}

/** Tests that the traversals of this package, run over the source, agree with the tree. */
export function agreementTests(test: RegisterTest, build: HeaderSourceFactory): void {
  test('ancestorAt, isAncestor and forkPoint over the source agree with the tree', () =>
    withSource(build, async (context) => {
      const { source, refs } = context
      const picked = sample(context)
      for (const a of picked) {
        const from = refs[a]!
        for (const height of [0, Math.floor(from.height / 2), from.height - 1, from.height]) {
          const expected = context.ancestorIndexAt(a, height)
          assert.deepEqual(plain(await ancestorAt(source, from.hash, height)), plain(expected === undefined ? undefined : refs[expected]))
        }
        const ofA = lineage(context, a)
        for (const b of picked) {
          const ofB = lineage(context, b)
          assert.equal(await isAncestor(source, refs[a]!.hash, refs[b]!.hash), ofB.has(a), `block ${a} an ancestor of ${b}`)
          // A lineage runs from the block down, so the first common block is the highest.
          const highest = [...ofA].find((index) => ofB.has(index))!
          assert.deepEqual(
            plain(await forkPoint(source, refs[a]!.hash, refs[b]!.hash)),
            plain(refs[highest]),
            `fork point of ${a} and ${b}`,
          )
        }
      }
      const otherChain = refs.find((ref) => ref.chainId !== refs[0]!.chainId)!
      assert.equal(await forkPoint(source, refs[0]!.hash, otherChain.hash), undefined, 'blocks of two chains have no fork point')
      assert.equal(await isAncestor(source, refs[0]!.hash, otherChain.hash), false)
    }))

  test('branch over the source yields what the tree says, highest first, ties by raw hash', () =>
    withSource(build, async (context) => {
      const { source, tree, refs } = context
      const parents = new Set(tree.map((block) => block.parent))
      const leaves = tree.flatMap((block, index) => (block.chain === 0 && !parents.has(index) ? [index] : []))
      const upper = leaves.slice(-3)
      const lower = [sample(context)[3]!]
      const covered = (bounds: number[]): Set<number> => new Set(bounds.flatMap((index) => [...lineage(context, index)]))
      const [inUpper, inLower] = [covered(upper), covered(lower)]
      for (const [minheight, maxheight] of [
        [0, Number.MAX_SAFE_INTEGER],
        [10, 40],
      ] as const) {
        const expected = [...inUpper]
          .filter((index) => !inLower.has(index))
          .map((index) => refs[index]!)
          .filter((ref) => ref.height >= minheight && ref.height <= maxheight)
          .sort((x, y) => y.height - x.height || Buffer.compare(x.hash, y.hash))
        const walked: HeaderRef[] = []
        const query = { chain: refs[0]!.chainId, upper: upper.map((i) => refs[i]!.hash), lower: lower.map((i) => refs[i]!.hash) }
        for await (const ref of branch(source, { ...query, minheight, maxheight })) walked.push(ref)
        assert.deepEqual(walked.map(plain), expected.map(plain), `heights ${minheight} to ${maxheight}`)
      }
    }))
}
