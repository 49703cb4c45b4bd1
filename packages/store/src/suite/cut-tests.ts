import assert from 'node:assert/strict'
import { blockToJsonText, difficulty, genesisBlock, genesisBlocks, getNetwork, headerToJsonText } from '@weft/block'
import type { RegisterTest } from '@weft/traversal/suite'
import type { StoreEvent } from '../chain-store.js'
import { makePayload, mineBraid, mineLine, mineValidChild } from './chain-miner.js'
import { type ChainStoreFactory, collect, recordEvents, text, withStore } from './context.js'

const development = getNetwork('development')
const singleton = getNetwork('test-singleton')
const genesis0 = () => genesisBlock(singleton, 0).header
// Lines of test-singleton mined a hundred times faster than its block delay: where one crosses an
// epoch start (every 12 blocks up to 120) its target gets about a hundred times harder.
const fast = { step: 10_000 }

// An event in a line: `inserted <height>`, or `cut` and each joined block as `<chain>:<height>`.
const describe = (e: StoreEvent): string =>
  e.type === 'inserted' ? `inserted ${e.header.height}` : `cut ${e.joined.map((j) => `${j.header.chainId}:${j.header.height}`).join(',')}`

/** The cut, its tie-break, and what a reorg announces. */
export function cutTests(test: RegisterTest, open: ChainStoreFactory): void {
  test('the cut follows the highest weight and breaks ties by the lowest raw hash', () =>
    withStore(open, async (store) => {
      const g = genesis0()
      const [x, y] = [
        mineValidChild(singleton, g, { payload: makePayload('x') }),
        mineValidChild(singleton, g, { payload: makePayload('y') }),
      ]
      const [low, high] = [x, y].sort((a, b) => Buffer.compare(a.header.hash, b.header.hash)) as [typeof x, typeof y]
      await store.insert(high)
      assert.deepEqual(store.cut().get(0)?.hash, high.header.hash)
      await store.insert(low)
      assert.deepEqual(store.cut().get(0)?.hash, low.header.hash, 'equal weights: the lower raw hash')
      const heavier = mineValidChild(singleton, high.header)
      await store.insert(heavier)
      assert.deepEqual(store.cut().get(0)?.hash, heavier.header.hash, 'the heavier branch, whatever its hashes')
      const before = store.cut()
      await store.insert(mineValidChild(singleton, heavier.header))
      assert.notEqual(store.cut(), before, 'a new map is handed out when the cut changes')
      assert.equal(before.get(0)?.hash.equals(heavier.header.hash), true, 'a map handed out earlier does not change')
    }))

  test('the change feed announces inserts in order, then the cut each write leaves with the blocks that joined it', () =>
    withStore(open, async (store) => {
      const events = recordEvents(store)
      const [a, b, c] = mineLine(singleton, genesis0(), 3)
      await store.insertMany([a!, b!])
      await store.insert(c!)
      assert.deepEqual(events.map(describe), ['inserted 1', 'inserted 2', 'cut 0:1,0:2', 'inserted 3', 'cut 0:3'])
      const last = events.at(-1)!
      assert.ok(last.type === 'cut')
      assert.equal(last.cut.size, 1)
      assert.deepEqual(last.cut.get(0), c!.header)
      assert.equal(last.cut, store.cut(), 'the event carries the cut the store now stands on')
      const inserted = events[0]!
      assert.ok(inserted.type === 'inserted')
      assert.equal(inserted.headerJson.toString(), headerToJsonText(a!.header, 'spec'))
      assert.equal(inserted.txCount, 0)
    }))

  test('a reorg announces the new branch from the fork point, ancestors first; orphan inserts do not move the cut', () =>
    withStore(open, async (store) => {
      const main = mineLine(singleton, genesis0(), 3)
      await store.insertMany(main)
      const events = recordEvents(store)
      // A side branch from height 1 that stays lighter, then overtakes by growing longer.
      const side = mineLine(singleton, main[0]!.header, 1, { payload: makePayload('side', 1) })
      await store.insertMany(side)
      assert.deepEqual(
        events.map((e) => e.type),
        ['inserted'],
        'a lighter branch is no news for the cut',
      )
      events.length = 0
      const overtaking = mineLine(singleton, side[0]!.header, 2)
      await store.insertMany(overtaking)
      const best = events.find((e) => e.type === 'cut')
      assert.ok(best?.type === 'cut')
      assert.deepEqual(best.cut.get(0), overtaking[1]!.header)
      assert.deepEqual(
        best.joined.map((j) => text(j.header.hash)),
        [side[0]!, ...overtaking].map((b) => text(b.header.hash)),
      )
      assert.deepEqual(
        best.joined.map((j) => j.txCount),
        [1, 0, 0],
      )
      assert.deepEqual(
        best.joined.map((j) => j.headerJson.toString()),
        [side[0]!, ...overtaking].map((b) => headerToJsonText(b.header, 'spec')),
      )
    }))

  test('a reorg to a shorter but heavier branch walks back to the fork point; orphans stay readable', () =>
    withStore(open, async (store) => {
      const g = genesis0()
      const long = mineLine(singleton, g, 13)
      await store.insertMany(long)
      const events = recordEvents(store)
      // Twelve blocks mined fast: the adjustment at 12 makes the last one far harder than any of the long line's.
      const heavy = mineLine(singleton, g, 12, { ...fast, payload: makePayload('short') })
      assert.ok(difficulty(heavy[11]!.header.target) > 10n * difficulty(long[11]!.header.target))
      await store.insertMany(heavy)
      const best = events.find((e) => e.type === 'cut')
      assert.ok(best?.type === 'cut')
      assert.deepEqual(
        best.joined.map((j) => text(j.header.hash)),
        heavy.map((b) => text(b.header.hash)),
      )
      for (const block of long) assert.equal((await store.getBlockJson(block.header.hash))?.toString(), blockToJsonText(block, 'spec'))
      const heights = (await collect(store.range({ chain: 0, minheight: 12 }))).map((i) => i.height)
      assert.deepEqual(heights, [12, 12, 13])
    }))

  test('a reorg whose blocks arrive in one insertMany call is announced once, for the cut it leaves', () =>
    withStore(open, async (store) => {
      const g = genesis0()
      await store.insertMany(mineLine(singleton, g, 2))
      const events = recordEvents(store)
      await store.insertMany(mineLine(singleton, g, 3, { payload: makePayload('one-call') }))
      const cuts = events.flatMap((e) => (e.type === 'cut' ? [e.joined.map((j) => j.header.height)] : []))
      assert.deepEqual(cuts, [[1, 2, 3]], 'the third side block overtakes, and the whole side branch joins')
    }))

  test('a fork pair written in one call announces one branch: the head the same write replaced never joins', () =>
    withStore(open, async (store) => {
      const events = recordEvents(store)
      const g = genesis0()
      const pair = [
        mineValidChild(singleton, g, { payload: makePayload('light') }),
        mineValidChild(singleton, g, { payload: makePayload('heavy') }),
      ]
      const [winner, loser] = [...pair].sort((a, b) => Buffer.compare(a.header.hash, b.header.hash)) as [(typeof pair)[0], (typeof pair)[0]]
      await store.insertMany([loser, winner])
      assert.deepEqual(events.map(describe), ['inserted 1', 'inserted 1', 'cut 0:1'])
      const cut = events.at(-1)!
      assert.ok(cut.type === 'cut')
      assert.equal(text(cut.joined[0]!.header.hash), text(winner.header.hash))
    }))

  test('blocks joining on several chains in one write come ancestors first, by height then chain', () =>
    withStore(
      open,
      async (store) => {
        const tips = new Map(genesisBlocks(development).map((block) => [block.header.chainId, block.header]))
        const { blocks } = mineBraid(development, tips, 2)
        const at = (chain: number, height: number) => blocks.find((b) => b.header.chainId === chain && b.header.height === height)!
        await store.insertMany(blocks.filter((b) => b.header.height === 1 && b.header.chainId !== 2 && b.header.chainId !== 5))
        const events = recordEvents(store)
        await store.insertMany([at(5, 1), at(5, 2), at(2, 1)])
        assert.deepEqual(events.at(-1) && describe(events.at(-1)!), 'cut 2:1,5:1,5:2')
      },
      'development',
    ))

  test('a cut holds the chains of the graph at its lowest head: a mainnet01 store of genesis blocks has ten', () =>
    withStore(
      open,
      async (store) => {
        assert.deepEqual([...store.cut().keys()], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
        assert.equal(store.heads().size, 20, 'every chain has its genesis block as head')
        assert.equal(store.heads().get(10)?.height, 852054)
      },
      'mainnet01',
    ))

  test('a deep reorg announces every block of the winning branch, ancestors first', () =>
    withStore(open, async (store) => {
      // 700 blocks against 699 that then grow past them by two.
      const g = genesis0()
      const main = mineLine(singleton, g, 700)
      const side = mineLine(singleton, g, 699, { payload: makePayload('deep') })
      await store.insertMany(main)
      await store.insertMany(side)
      assert.deepEqual(store.cut().get(0), main.at(-1)!.header)
      const events = recordEvents(store)
      const overtaking = mineLine(singleton, side.at(-1)!.header, 2)
      await store.insertMany(overtaking)
      const best = events.find((e) => e.type === 'cut')
      assert.ok(best?.type === 'cut')
      assert.deepEqual(
        best.joined.map((j) => text(j.header.hash)),
        [...side, ...overtaking].map((b) => text(b.header.hash)),
      )
      assert.deepEqual(best.joined.at(-3)!.header, side.at(-1)!.header)
    }))
}
