import assert from 'node:assert/strict'
import type { HeaderRef, HeaderSource } from '../header-source.js'
import { suiteTree, type TreeBlock } from './tree.js'

/** Registers one named test that passes when `fn` resolves: tap's `(name, fn) => t.test(name, fn)` and node:test's `test` both fit. */
export type RegisterTest = (name: string, fn: () => Promise<void>) => unknown

/** A source built for one test, with the ref of each tree block in tree order; `close` is called when the test ends. */
export interface BuiltHeaderSource {
  readonly source: HeaderSource
  readonly refs: readonly HeaderRef[]
  close?(): Promise<void>
}

/** Builds a source holding exactly the blocks of `tree` (parents first; one root per chain, whose parent the source does not hold). */
export type HeaderSourceFactory = (tree: readonly TreeBlock[]) => Promise<BuiltHeaderSource>

/** What a suite test works with: the source, the tree, and answers computed from the tree alone. */
export interface SuiteContext {
  readonly source: HeaderSource
  readonly tree: readonly TreeBlock[]
  readonly refs: readonly HeaderRef[]
  /** The index of the ancestor-or-self of block `index` at `height`, if any. */
  ancestorIndexAt(index: number, height: number): number | undefined
}

/** A ref as plain data, so that answers compare by value whatever their class or buffer views. */
export function plain(ref: HeaderRef | undefined): object | undefined {
  if (ref === undefined) return undefined
  assert.ok(Buffer.isBuffer(ref.hash) && Buffer.isBuffer(ref.parent), 'hash and parent are Buffers')
  return { hash: ref.hash.toString('hex'), parent: ref.parent.toString('hex'), height: ref.height, chainId: ref.chainId }
}

/** Builds a source for the suite tree, checks that the factory's refs have the tree's shape, runs `body`, then closes the source. */
export async function withSource(build: HeaderSourceFactory, body: (context: SuiteContext) => Promise<void>): Promise<void> {
  const tree = suiteTree()
  const { source, refs, close } = await build(tree)
  try {
    assert.equal(refs.length, tree.length, 'the factory returns one ref per tree block')
    tree.forEach((block, index) => {
      const ref = refs[index]!
      assert.equal(ref.chainId, block.chain, `block ${index} is on chain ${block.chain}`)
      if (block.parent === undefined) return
      const parent = refs[block.parent]!
      assert.ok(ref.parent.equals(parent.hash), `block ${index} names block ${block.parent} as its parent`)
      assert.ok(ref.height > parent.height, `block ${index} is above its parent`)
    })
    const ancestorIndexAt = (index: number, height: number): number | undefined => {
      let at: number | undefined = index
      while (at !== undefined && refs[at]!.height > height) at = tree[at]!.parent
      return at !== undefined && refs[at]!.height === height ? at : undefined
    }
    await body({ source, tree, refs, ancestorIndexAt })
  } finally {
    await close?.()
  }
}
