import { type Block, genesisBlock, getNetwork, type Header } from '@weft/block'
import type { HeaderRef } from '@weft/traversal'
import { headerSourceSuite, type RegisterTest, type TreeBlock } from '@weft/traversal/suite'
import { adoptedCutTests } from './adopted-cut-tests.js'
import { braidingTests } from './braiding-tests.js'
import { capabilityTests } from './capability-tests.js'
import { mineLooseChild } from './chain-miner.js'
import type { ChainStoreFactory, StoreCapabilities } from './context.js'
import { cutTests } from './cut-tests.js'
import { feedTests } from './feed-tests.js'
import { insertTests } from './insert-tests.js'
import { readTests } from './read-tests.js'

export type { RegisterTest } from '@weft/traversal/suite'
export { type ChildOptions, type MinedBraid, makePayload, mineBraid, mineLine, mineLooseChild, mineValidChild } from './chain-miner.js'
export type { ChainStoreFactory, StoreCapabilities, SuiteStoreOptions } from './context.js'

const development = getNetwork('development')

/**
 * Registers, through `test`, the tests of the `ChainStore` contract against stores that `open`
 * makes, one fresh store per test (the suite closes it): insert validation and idempotence,
 * missing parents, ordered ranges with orphans, cursors, the cut and its tie-break, reorgs and the
 * change feed, concurrent writes, closing; snapshots and the transaction index as `capabilities`
 * declares them (the part, or a store that says it lacks it); then, for a store that declares
 * `importing`, `headerSourceSuite` of `@weft/traversal`, since a store is a `HeaderSource` (and an
 * `AncestorSource`), on a tree of mined development blocks: three chains growing apart, which no
 * braid holds, so those stores take blocks as an import does (hashes and parent links checked).
 */
export function chainStoreSuite(test: RegisterTest, open: ChainStoreFactory, capabilities: StoreCapabilities): void {
  insertTests(test, open)
  readTests(test, open)
  cutTests(test, open)
  braidingTests(test, open)
  adoptedCutTests(test, open)
  feedTests(test, open)
  capabilityTests(test, open, capabilities)
  if (capabilities.importing) headerSourceTests(test, open)
}

// headerSourceSuite on a tree of blocks that only an importing store takes.
function headerSourceTests(test: RegisterTest, open: ChainStoreFactory): void {
  let mined: { blocks: Block[]; headers: Header[] } | undefined
  headerSourceSuite(
    (name, fn) => test(`as a HeaderSource: ${name}`, fn),
    async (tree) => {
      mined ??= mineTree(tree)
      const store = await open('development', { cutPolicy: 'fork-choice', importing: true })
      await store.insertMany(mined.blocks)
      const refs: HeaderRef[] = mined.headers.map(({ hash, parent, height, chainId }) => ({ hash, parent, height, chainId }))
      return { source: store, refs, close: () => store.close() }
    },
  )
}

// Development blocks shaped as `tree`: each root is its chain's genesis block, and siblings differ by nonce.
function mineTree(tree: readonly TreeBlock[]): { blocks: Block[]; headers: Header[] } {
  const blocks: Block[] = []
  const headers: Header[] = []
  tree.forEach((block, index) => {
    if (block.parent === undefined) {
      headers.push(genesisBlock(development, block.chain).header)
      return
    }
    // Nonces counted up from far apart starts: a few tries find one, so siblings never meet.
    const mined = mineLooseChild(development, headers[block.parent]!, BigInt(index) << 32n)
    blocks.push(mined)
    headers.push(mined.header)
  })
  return { blocks, headers }
}
