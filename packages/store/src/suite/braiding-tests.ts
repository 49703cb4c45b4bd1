import assert from 'node:assert/strict'
import { type Block, genesisBlock, genesisBlocks, getNetwork, type Header, mineChildHeader, networkOpening } from '@weft/block'
import type { RegisterTest } from '@weft/traversal/suite'
import { mineBraid } from './chain-miner.js'
import { type ChainStoreFactory, recordEvents, rejection, type SuiteStoreOptions, text, violationCodes, withStore } from './context.js'

const development = getNetwork('development')
const recap = getNetwork('recap-development')
const braided: SuiteStoreOptions = { cutPolicy: 'fork-choice' }
const genesisTips = (network = development): Map<number, Header> =>
  new Map(genesisBlocks(network).map((block) => [block.header.chainId, block.header]))
// recap-development's opening (its genesis targets are beyond a CPU: see networkOpening) at `height`.
const openingAt = (height: number): Block[] => networkOpening(recap).filter((block) => block.header.height === height)

/** Braiding: a block's adjacents are stored blocks of their chains at its parent's height; cuts across a graph transition. */
export function braidingTests(test: RegisterTest, open: ChainStoreFactory): void {
  test('braided blocks of every chain are stored, each after the neighbours it names', () =>
    withStore(
      open,
      async (store) => {
        const { blocks, tips } = mineBraid(development, genesisTips(), 3)
        assert.equal(await store.insertMany(blocks), 60)
        for (const [chain, tip] of tips) assert.equal(text(store.cut().get(chain)!.hash), text(tip.hash))
      },
      'development',
      braided,
    ))

  test('a block naming an adjacent the store does not hold is refused with ADJACENT_NOT_FOUND, and nothing is written', () =>
    withStore(
      open,
      async (store) => {
        const { blocks } = mineBraid(development, genesisTips(), 2)
        const second = blocks.find((block) => block.header.height === 2 && block.header.chainId === 0)!
        // Chain 0's height-2 block names chain 5's height-1 block: leave that one out.
        const withoutNeighbour = blocks.filter((block) => !(block.header.height === 1 && block.header.chainId === 5))
        const error = await rejection(store.insertMany(withoutNeighbour))
        assert.equal(error.code, 'ADJACENT_NOT_FOUND')
        assert.equal(error.name, 'MissingAdjacentError')
        assert.equal(error.chain, 5)
        assert.equal(await store.getHeader(second.header.hash), undefined)
      },
      'development',
      braided,
    ))

  test('an adjacent parent of another chain, or at another height, makes the block invalid', () =>
    withStore(
      open,
      async (store) => {
        const { blocks } = mineBraid(development, genesisTips(), 1)
        await store.insertMany(blocks)
        const one = (chain: number) => blocks.find((block) => block.header.chainId === chain)!.header
        // Chain 0 at height 2 names chains 5, 10 and 15 at height 1; name chain 6's block for chain 5.
        const child = (adjacents: ReadonlyArray<readonly [number, Header]>) =>
          mineChildHeader(one(0), {
            creationTime: one(0).creationTime + 30_000_000,
            adjacentParents: adjacents.map(([, header]) => header),
            adjacents: adjacents.map(([chain, header]) => [chain, header.hash] as const),
            payloadHash: one(0).payloadHash,
          })
        const onChain6 = await rejection(
          store.insert({
            header: child([
              [5, one(6)],
              [10, one(10)],
              [15, one(15)],
            ]),
            payload: blocks[0]!.payload,
          }),
        )
        assert.equal(onChain6.code, 'INVALID_BLOCK')
        assert.deepEqual(violationCodes(onChain6), ['INVALID_ADJACENT_PARENT'])
        const genesis5 = genesisBlock(development, 5).header
        const below = await rejection(
          store.insert({
            header: child([
              [5, genesis5],
              [10, one(10)],
              [15, one(15)],
            ]),
            payload: blocks[0]!.payload,
          }),
        )
        assert.deepEqual(violationCodes(below), ['INVALID_BRAIDING'], "chain 5's genesis block is not at the parent's height")
      },
      'development',
      braided,
    ))

  test('across a graph transition the cut grows from ten chains to twenty, the new chains joining from genesis', () =>
    withStore(
      open,
      async (store) => {
        const events = recordEvents(store)
        assert.deepEqual([...store.cut().keys()], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
        assert.equal(store.heads().size, 20)
        await store.insertMany(networkOpening(recap).filter((block) => block.header.height <= 59))
        assert.equal(store.cut().size, 10, 'every old chain at 59: still ten chains')
        const at = { blocks: openingAt(60), tips: new Map(openingAt(60).map((block) => [block.header.chainId, block.header])) }
        assert.deepEqual(
          at.blocks.map((block) => block.header.chainId),
          [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
          'the new chains wait at their genesis blocks',
        )
        assert.deepEqual(
          at.blocks[0]!.header.adjacents.map(([chain]) => chain),
          [2, 3, 5],
          'the first block at the transition braids with the old graph',
        )
        events.length = 0
        await store.insertMany(at.blocks)
        assert.equal(store.cut().size, 20)
        const cut = events.find((event) => event.type === 'cut')
        assert.ok(cut?.type === 'cut')
        const joinedGenesis = cut.joined.filter((joined) => joined.header.chainId >= 10)
        assert.deepEqual(
          joinedGenesis.map((joined) => text(joined.header.hash)),
          genesisBlocks(recap)
            .slice(10)
            .map((block) => text(block.header.hash)),
          'chains 10-19 join with their genesis blocks',
        )
        const after = { blocks: openingAt(61) }
        assert.equal(after.blocks.length, 20)
        assert.deepEqual(
          after.blocks.find((block) => block.header.chainId === 10)!.header.adjacents.map(([chain, hash]) => [chain, text(hash)]),
          [
            [0, text(at.tips.get(0)!.hash)],
            [11, text(genesisBlock(recap, 11).header.hash)],
            [19, text(genesisBlock(recap, 19).header.hash)],
          ],
        )
        await store.insertMany(after.blocks)
        assert.equal(store.cut().get(10)?.height, 61)
      },
      'recap-development',
      braided,
    ))

  test('a new chain that ran ahead joins the cut with every block from its genesis up, once the old chains reach the transition', () =>
    withStore(
      open,
      async (store) => {
        const blocks = networkOpening(recap).filter((block) => block.header.height <= 61)
        const withheld = blocks.find((block) => block.header.chainId === 3 && block.header.height === 60)!
        const ahead = blocks.find((block) => block.header.chainId === 10 && block.header.height === 61)!
        await store.insertMany(blocks.filter((block) => block.header.height <= 60 && block !== withheld))
        await store.insert(ahead)
        assert.equal(store.cut().size, 10, 'chain 3 is still at 59')
        assert.equal(store.heads().get(10)?.height, 61)
        const events = recordEvents(store)
        await store.insert(withheld)
        const cut = events.find((event) => event.type === 'cut')
        assert.ok(cut?.type === 'cut')
        assert.deepEqual(
          cut.joined.filter((joined) => joined.header.chainId === 10).map((joined) => joined.header.height),
          [60, 61],
        )
        assert.equal(cut.joined.at(-1)!.header.chainId, 10, 'the height-61 block comes after every height-60 one')
      },
      'recap-development',
      braided,
    ))
}
