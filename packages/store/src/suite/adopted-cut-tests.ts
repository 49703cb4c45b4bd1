import assert from 'node:assert/strict'
import { genesisBlocks, getNetwork, type Header } from '@weft/block'
import type { RegisterTest } from '@weft/traversal/suite'
import { mineBraid } from './chain-miner.js'
import { type ChainStoreFactory, recordEvents, rejection, type SuiteStoreOptions, text, withStore } from './context.js'

const development = getNetwork('development')
const adopted: SuiteStoreOptions = { cutPolicy: 'adopted' }
const genesisTips = (): Map<number, Header> => new Map(genesisBlocks(development).map((block) => [block.header.chainId, block.header]))
const hashesOf = (tips: ReadonlyMap<number, Header>): Map<number, Buffer> => new Map([...tips].map(([chain, tip]) => [chain, tip.hash]))

/** The adopted cut: set from outside once the store holds its heads, never moved by inserts. */
export function adoptedCutTests(test: RegisterTest, open: ChainStoreFactory): void {
  test('an adopted cut stays where it was adopted while blocks are inserted, and moves when a new one is adopted', () =>
    withStore(
      open,
      async (store) => {
        assert.equal(store.cutPolicy, 'adopted')
        const events = recordEvents(store)
        const first = mineBraid(development, genesisTips(), 2)
        await store.insertMany(first.blocks)
        assert.ok(
          [...store.cut().values()].every((head) => head.height === 0),
          'inserts do not move it',
        )
        assert.equal(store.heads().get(0)?.height, 2, 'the heads do move')
        assert.deepEqual(
          events.map((event) => event.type),
          first.blocks.map(() => 'inserted'),
        )
        const middle = new Map([...first.tips].map(([chain]) => [chain, first.blocks.find((b) => b.header.chainId === chain)!.header]))
        await store.adoptCut(hashesOf(middle))
        assert.equal(text(store.cut().get(7)!.hash), text(middle.get(7)!.hash))
        const cut = events.at(-1)!
        assert.ok(cut.type === 'cut')
        assert.equal(cut.joined.length, 20)
        assert.ok(cut.joined.every((joined) => joined.header.height === 1))
        events.length = 0
        await store.adoptCut(hashesOf(middle))
        assert.equal(events.length, 0, 'adopting the same cut again announces nothing')
        await store.adoptCut(hashesOf(first.tips))
        const moved = events.at(-1)!
        assert.ok(moved.type === 'cut')
        assert.ok(moved.joined.every((joined) => joined.header.height === 2))
      },
      'development',
      adopted,
    ))

  test('a cut naming a block the store does not hold, or the wrong chains, is refused with INVALID_CUT', () =>
    withStore(
      open,
      async (store) => {
        const { tips } = mineBraid(development, genesisTips(), 1)
        const missing = await rejection(store.adoptCut(hashesOf(tips)))
        assert.equal(missing.name, 'InvalidCutError')
        assert.equal(missing.code, 'INVALID_CUT')
        assert.match(missing.message, /is not stored/)
        const swapped = hashesOf(genesisTips())
        swapped.set(3, swapped.get(4)!)
        const foreign = await rejection(store.adoptCut(swapped))
        assert.match(foreign.message, /named for chain 3 is a block of chain 4/)
        const genesis = hashesOf(genesisTips())
        genesis.delete(19)
        const partial = await rejection(store.adoptCut(genesis))
        assert.equal(partial.code, 'INVALID_CUT')
        assert.equal(store.cut().size, 20, 'the cut is unchanged')
      },
      'development',
      adopted,
    ))

  test('a fork-choice store refuses to adopt a cut', () =>
    withStore(open, async (store) => {
      assert.equal(store.cutPolicy, 'fork-choice')
      const error = await rejection(store.adoptCut(hashesOf(genesisTips())))
      assert.equal(error.code, 'INVALID_CUT')
      assert.equal(error.name, 'InvalidCutError')
    }))
}
