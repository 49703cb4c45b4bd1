import assert from 'node:assert/strict'
import { blockToJsonText, decodeHeader, genesisBlock, getNetwork, headerToJsonText } from '@weft/block'
import { ancestorAt, branch } from '@weft/traversal'
import type { RegisterTest } from '@weft/traversal/suite'
import type { ChainStore } from '../chain-store.js'
import { makePayload, mineLine, mineValidChild } from './chain-miner.js'
import { type ChainStoreFactory, collect, text, withStore } from './context.js'

const development = getNetwork('development')
const singleton = getNetwork('test-singleton')
const genesis0 = () => genesisBlock(singleton, 0).header

/** Ordered ranges with orphans and cursors, full-block pages, refs, ancestors and branch walks. */
export function readTests(test: RegisterTest, open: ChainStoreFactory): void {
  test('range is ascending by height then raw hash, orphans included, within min and max height', () =>
    withStore(open, async (store) => {
      const g = genesis0()
      const main = mineLine(singleton, g, 4)
      const fork = mineLine(singleton, g, 3, { payload: makePayload('fork') })
      await store.insertMany([...main, ...fork])
      const all = await collect(store.range({ chain: 0 }))
      const expected = [g, ...main.map((b) => b.header), ...fork.map((b) => b.header)].sort(
        (a, b) => a.height - b.height || Buffer.compare(a.hash, b.hash),
      )
      assert.deepEqual(
        all.map((item) => text(item.hash)),
        expected.map((h) => text(h.hash)),
      )
      assert.deepEqual(
        all.map((item) => item.height),
        expected.map((h) => h.height),
      )
      for (const item of all) {
        const header = decodeHeader(item.headerBinary)
        assert.equal(item.headerJson.toString(), headerToJsonText(header, 'spec'))
        assert.deepEqual(item.payloadHash, header.payloadHash)
      }
      const bounded = await collect(store.range({ chain: 0, minheight: 2, maxheight: 3 }))
      assert.deepEqual(
        bounded.map((item) => text(item.hash)),
        expected.filter((h) => h.height >= 2 && h.height <= 3).map((h) => text(h.hash)),
      )
      assert.deepEqual(await collect(store.range({ chain: 0, minheight: 3, maxheight: 2 })), [])
      assert.deepEqual(await collect(store.range({ chain: 5, minheight: 1 })), [])
    }))

  test('range starts at or just after a stored block, still bounded by min and max height', () =>
    withStore(open, async (store) => {
      const line = mineLine(singleton, genesis0(), 6)
      await store.insertMany(line)
      const heightsFrom = async (query: Parameters<ChainStore['range']>[0]) =>
        (await collect(store.range(query))).map((item) => item.height)
      const third = line[2]!.header.hash
      assert.deepEqual(await heightsFrom({ chain: 0, start: { hash: third, inclusive: true } }), [3, 4, 5, 6])
      assert.deepEqual(await heightsFrom({ chain: 0, start: { hash: third, inclusive: false } }), [4, 5, 6])
      assert.deepEqual(await heightsFrom({ chain: 0, start: { hash: third, inclusive: false }, maxheight: 5 }), [4, 5])
      assert.deepEqual(await heightsFrom({ chain: 0, start: { hash: third, inclusive: true }, minheight: 5 }), [5, 6])
      assert.deepEqual(await heightsFrom({ chain: 0, start: { hash: line[4]!.header.hash, inclusive: false }, minheight: 2 }), [6])
    }))

  test('a range start that is unknown or on another chain is CURSOR_NOT_FOUND', () =>
    withStore(open, async (store) => {
      const unknown = Buffer.alloc(32, 3)
      await assert.rejects(collect(store.range({ chain: 0, start: { hash: unknown, inclusive: true } })), {
        code: 'CURSOR_NOT_FOUND',
        name: 'CursorNotFoundError',
        hash: unknown,
      })
    }))

  test('a range start on another chain is CURSOR_NOT_FOUND', () =>
    withStore(
      open,
      async (store) => {
        const otherChain = genesisBlock(development, 1).header.hash
        await assert.rejects(collect(store.range({ chain: 0, start: { hash: otherChain, inclusive: false } })), {
          code: 'CURSOR_NOT_FOUND',
        })
      },
      'development',
    ))

  test('leaving a range early releases it, so the store still closes', async () => {
    const store = await open('test-singleton', { cutPolicy: 'fork-choice' })
    await store.insertMany(mineLine(singleton, genesis0(), 10))
    const heights: number[] = []
    for await (const item of store.range({ chain: 0 })) {
      heights.push(item.height)
      if (heights.length === 3) break
    }
    assert.deepEqual(heights, [0, 1, 2])
    await store.close()
  })

  test('readRangeBlocks turns a page of range items into the stored full-block JSON', () =>
    withStore(open, async (store) => {
      const line = mineLine(singleton, genesis0(), 4, { payload: makePayload('page', 2) })
      await store.insertMany(line)
      const items = await collect(store.range({ chain: 0, minheight: 1 }))
      const blocks = await store.readRangeBlocks(items)
      assert.deepEqual(
        blocks.map((b) => b.toString()),
        line.map((b) => blockToJsonText(b, 'spec')),
      )
      assert.deepEqual(await store.readRangeBlocks([]), [])
    }))

  test('getRefs answers hash, parent, height and chain in request order', () =>
    withStore(
      open,
      async (store) => {
        const a = mineValidChild(development, genesisBlock(development, 0).header)
        await store.insert(a)
        const g = genesisBlock(development, 7).header
        const refs = await store.getRefs([a.header.hash, Buffer.alloc(32), g.hash])
        assert.deepEqual(refs, [
          { hash: a.header.hash, parent: a.header.parent, height: 1, chainId: 0 },
          undefined,
          { hash: g.hash, parent: g.parent, height: 0, chainId: 7 },
        ])
      },
      'development',
    ))

  test('the traversal library walks a branch through the store', () =>
    withStore(open, async (store) => {
      const main = mineLine(singleton, genesis0(), 5)
      const fork = mineLine(singleton, main[1]!.header, 2, { payload: makePayload('side') })
      await store.insertMany([...main, ...fork])
      const walked = await collect(branch(store, { chain: 0, upper: [fork[1]!.header.hash], lower: [main[0]!.header.hash] }))
      assert.deepEqual(
        walked.map((ref) => ref.height),
        [4, 3, 2],
      )
      assert.deepEqual(
        walked.map((ref) => text(ref.hash)),
        [fork[1]!, fork[0]!, main[1]!].map((b) => text(b.header.hash)),
      )
    }))

  test('ancestorAt finds the ancestor-or-self at any depth, past orphans at every height, as a walk by getRefs does', () =>
    withStore(open, async (store) => {
      // A line of 1,500 blocks with an orphan beside each, so that every height holds two candidates.
      const line = mineLine(singleton, genesis0(), 1500)
      const orphans = line
        .slice(0, -1)
        .map((block, index) => mineValidChild(singleton, block.header, { payload: makePayload(`orphan-${index}`) }))
      await store.insertMany(line.flatMap((block, index) => (index === 0 ? [block] : [orphans[index - 1]!, block])))
      const tip = line.at(-1)!.header
      const byRefs = { getRefs: (hashes: readonly Uint8Array[]) => store.getRefs(hashes) }
      for (const height of [1500, 1499, 1000, 700, 1, 0]) {
        const found = await store.ancestorAt(tip.hash, height)
        assert.deepEqual(found, await ancestorAt(byRefs, tip.hash, height), `height ${height}`)
        assert.equal(found?.height, height)
      }
      assert.equal(await store.ancestorAt(tip.hash, 1501), undefined, 'above the block')
      const orphan = orphans[700]!.header
      assert.deepEqual(await store.ancestorAt(orphan.hash, 3), await ancestorAt(byRefs, orphan.hash, 3))
    }))
}
