import assert from 'node:assert/strict'
import { blockToJsonText, genesisBlock, getNetwork, headerToJsonText, MAX_U256 } from '@weft/block'
import type { RegisterTest } from '@weft/traversal/suite'
import type { StoreEvent } from '../chain-store.js'
import { makePayload, mineChild, mineLine } from './chain-miner.js'
import { type ChainStoreFactory, collect, recordEvents, text, withStore } from './context.js'

const development = getNetwork('development')
const genesis0 = () => genesisBlock(development, 0).header

// An event in a line: `inserted <height>`, or `cut` and each joined block as `<chain>:<height>`.
const describe = (e: StoreEvent): string =>
  e.type === 'inserted' ? `inserted ${e.header.height}` : `cut ${e.joined.map((j) => `${j.header.chainId}:${j.header.height}`).join(',')}`

/** The cut, its tie-break, and what a reorg announces. */
export function cutTests(test: RegisterTest, open: ChainStoreFactory): void {
  test('the cut follows the highest weight and breaks ties by the lowest raw hash', () =>
    withStore(open, async (store) => {
      const g = genesis0()
      const light = mineChild(development, g) // difficulty 1
      const heavy = mineChild(development, g, { target: MAX_U256 >> 3n, payload: makePayload('heavy') }) // difficulty 8
      await store.insert(light)
      assert.deepEqual(store.cut().get(0)?.hash, light.header.hash)
      await store.insert(heavy)
      assert.deepEqual(store.cut().get(0)?.hash, heavy.header.hash)
      // Two more children of the heavy block with equal weight: the lower raw hash wins whatever the order.
      const [x, y] = [
        mineChild(development, heavy.header, { payload: makePayload('x') }),
        mineChild(development, heavy.header, { payload: makePayload('y') }),
      ]
      const [low, high] = [x, y].sort((a, b) => Buffer.compare(a.header.hash, b.header.hash)) as [typeof x, typeof y]
      await store.insert(high)
      await store.insert(low)
      assert.deepEqual(store.cut().get(0)?.hash, low.header.hash)
      const before = store.cut()
      await store.insert(mineChild(development, low.header))
      assert.notEqual(store.cut(), before, 'a new map is handed out when the cut changes')
      assert.equal(before.get(0)?.hash.equals(low.header.hash), true, 'a map handed out earlier does not change')
    }))

  test('the change feed announces inserts in order, then the cut each write leaves with the blocks that joined it', () =>
    withStore(open, async (store) => {
      const events = recordEvents(store)
      const [a, b, c] = mineLine(development, genesis0(), 3)
      await store.insertMany([a!, b!])
      await store.insert(c!)
      assert.deepEqual(events.map(describe), ['inserted 1', 'inserted 2', 'cut 0:1,0:2', 'inserted 3', 'cut 0:3'])
      const last = events.at(-1)!
      assert.ok(last.type === 'cut')
      assert.equal(last.cut.size, 20)
      assert.deepEqual(last.cut.get(0), c!.header)
      assert.equal(last.cut, store.cut(), 'the event carries the cut the store now stands on')
      const inserted = events[0]!
      assert.ok(inserted.type === 'inserted')
      assert.equal(inserted.headerJson.toString(), headerToJsonText(a!.header, 'spec'))
      assert.equal(inserted.txCount, 0)
    }))

  test('a reorg announces the new branch from the fork point, ancestors first; orphan inserts do not move the cut', () =>
    withStore(open, async (store) => {
      const main = mineLine(development, genesis0(), 3)
      await store.insertMany(main)
      const events = recordEvents(store)
      // A side branch from height 1 that stays lighter, then overtakes with a heavy block.
      const side = mineLine(development, main[0]!.header, 2, { payload: makePayload('side', 1) })
      await store.insertMany(side)
      assert.deepEqual(
        events.map((e) => e.type),
        ['inserted', 'inserted'],
        'a lighter or equal-weight-higher-hash branch is no news for the cut',
      )
      events.length = 0
      const overtaking = mineChild(development, side[1]!.header, { target: MAX_U256 >> 4n })
      await store.insert(overtaking)
      const best = events.find((e) => e.type === 'cut')
      assert.ok(best?.type === 'cut')
      assert.deepEqual(best.cut.get(0), overtaking.header)
      assert.deepEqual(
        best.joined.map((j) => text(j.header.hash)),
        [side[0]!, side[1]!, overtaking].map((b) => text(b.header.hash)),
      )
      assert.deepEqual(
        best.joined.map((j) => j.txCount),
        [1, 1, 0],
      )
      assert.deepEqual(
        best.joined.map((j) => j.headerJson.toString()),
        [side[0]!, side[1]!, overtaking].map((b) => headerToJsonText(b.header, 'spec')),
      )
    }))

  test('a reorg to a shorter but heavier branch walks back to the fork point; orphans stay readable', () =>
    withStore(open, async (store) => {
      const g = genesis0()
      const long = mineLine(development, g, 4)
      await store.insertMany(long)
      const events = recordEvents(store)
      const heavy = mineChild(development, g, { target: MAX_U256 >> 8n, payload: makePayload('short') })
      await store.insert(heavy)
      const best = events.find((e) => e.type === 'cut')
      assert.ok(best?.type === 'cut' && best.joined.length === 1 && best.joined[0]!.header.hash.equals(heavy.header.hash))
      for (const block of long) assert.equal((await store.getBlockJson(block.header.hash))?.toString(), blockToJsonText(block, 'spec'))
      const heights = (await collect(store.range({ chain: 0, minheight: 1 }))).map((i) => i.height)
      assert.deepEqual(heights, [1, 1, 2, 3, 4])
    }))

  test('a reorg whose blocks arrive in one insertMany call is announced once, for the cut it leaves', () =>
    withStore(open, async (store) => {
      const g = genesis0()
      await store.insertMany(mineLine(development, g, 2))
      const events = recordEvents(store)
      await store.insertMany(mineLine(development, g, 3, { payload: makePayload('one-call') }))
      const cuts = events.flatMap((e) => (e.type === 'cut' ? [e.joined.map((j) => j.header.height)] : []))
      assert.deepEqual(cuts, [[1, 2, 3]], 'the third side block overtakes, and the whole side branch joins')
    }))

  test('a fork pair written in one batch announces one branch: the head the same write replaced never joins', () =>
    withStore(open, async (store) => {
      const events = recordEvents(store)
      const g = genesis0()
      const light = mineChild(development, g, { payload: makePayload('light') })
      const heavy = mineChild(development, g, { target: MAX_U256 >> 2n, payload: makePayload('heavy') })
      await store.insertMany([light, heavy])
      assert.deepEqual(events.map(describe), ['inserted 1', 'inserted 1', 'cut 0:1'])
      const cut = events.at(-1)!
      assert.ok(cut.type === 'cut')
      assert.equal(text(cut.joined[0]!.header.hash), text(heavy.header.hash))
    }))

  test('blocks joining on several chains in one write come ancestors first, by height then chain', () =>
    withStore(open, async (store) => {
      const events = recordEvents(store)
      const [a1, a2] = mineLine(development, genesisBlock(development, 5).header, 2)
      const [b1] = mineLine(development, genesisBlock(development, 2).header, 1)
      await store.insertMany([a1!, a2!, b1!])
      assert.deepEqual(events.at(-1) && describe(events.at(-1)!), 'cut 2:1,5:1,5:2')
    }))

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
      // 700 blocks of difficulty 2 against 700 of difficulty 1 and one that outweighs them all.
      const g = genesis0()
      const main = mineLine(development, g, 700, { target: MAX_U256 >> 1n })
      const side = mineLine(development, g, 700, { payload: makePayload('deep') })
      await store.insertMany(main)
      await store.insertMany(side)
      assert.deepEqual(store.cut().get(0), main.at(-1)!.header)
      const events = recordEvents(store)
      const overtaking = mineChild(development, side.at(-1)!.header, { target: MAX_U256 >> 11n })
      await store.insert(overtaking)
      const best = events.find((e) => e.type === 'cut')
      assert.ok(best?.type === 'cut')
      assert.deepEqual(
        best.joined.map((j) => text(j.header.hash)),
        [...side, overtaking].map((b) => text(b.header.hash)),
      )
      assert.deepEqual(best.joined.at(-2)!.header, side.at(-1)!.header)
    }))
}
