import { createHash } from 'node:crypto'
import type { HeaderRef } from '../header-source.js'

/** One block of a suite tree: its chain, and the index of its parent among the blocks before it (none for the chain's root). */
export interface TreeBlock {
  readonly chain: number
  readonly parent?: number
}

// mulberry32: the tree is the same on every run and for every implementation.
function seeded(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let x = state
    x = Math.imul(x ^ (x >>> 15), x | 1)
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61)
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32
  }
}

/**
 * The tree every test of the suite builds, over chains 0, 1 and 2: on chain 0, 80 blocks that
 * fork often; on chain 1, a line of 7; on chain 2, a line of 401 (deeper than the batches a source
 * may read by) with an orphan off every 37th block and three siblings at one height.
 */
export function suiteTree(): TreeBlock[] {
  const random = seeded(14)
  const tree: TreeBlock[] = [{ chain: 0 }]
  for (let index = 1; index < 80; index++) {
    // Most blocks extend the newest one; about one in three forks off one of the six before it.
    const back = random() < 0.65 ? 1 : 1 + Math.floor(random() * Math.min(index, 6))
    tree.push({ chain: 0, parent: index - back })
  }
  // A line of `length` blocks from a new root, with an orphan sibling beside every `orphanEvery`th: its blocks' indexes.
  const line = (chain: number, length: number, orphanEvery: number): number[] => {
    tree.push({ chain })
    const blocks = [tree.length - 1]
    for (let step = 1; step < length; step++) {
      const parent = blocks.at(-1)!
      if (step % orphanEvery === 0) tree.push({ chain, parent })
      tree.push({ chain, parent })
      blocks.push(tree.length - 1)
    }
    return blocks
  }
  line(1, 7, Number.POSITIVE_INFINITY)
  const long = line(2, 401, 37)
  for (let sibling = 0; sibling < 3; sibling++) tree.push({ chain: 2, parent: long.at(-101)! })
  return tree
}

/**
 * Refs for `tree` with made-up hashes (sha256 of the index): roots at height 0 with a parent
 * hash that no block has. A factory for a source that holds any refs can hand these over as they are.
 */
export function refsOfTree(tree: readonly TreeBlock[], salt = 'weft-suite'): HeaderRef[] {
  const hash = (text: string): Buffer => createHash('sha256').update(`${salt}:${text}`).digest()
  const refs: HeaderRef[] = []
  tree.forEach((block, index) => {
    const parent = block.parent === undefined ? undefined : refs[block.parent]
    refs.push({
      hash: hash(String(index)),
      parent: parent?.hash ?? hash(`root-parent:${block.chain}`),
      height: parent === undefined ? 0 : parent.height + 1,
      chainId: block.chain,
    })
  })
  return refs
}
