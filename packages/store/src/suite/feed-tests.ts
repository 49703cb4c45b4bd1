import assert from 'node:assert/strict'
import { type Block, genesisBlock, getNetwork } from '@weft/block'
import type { RegisterTest } from '@weft/traversal/suite'
import type { StoreEvent } from '../chain-store.js'
import { mineLine, mineValidChild } from './chain-miner.js'
import { type ChainStoreFactory, collect, recordEvents, withStore } from './context.js'

const singleton = getNetwork('test-singleton')
const genesis0 = () => genesisBlock(singleton, 0).header

/** Listeners, the order of concurrent writes, and closing. */
export function feedTests(test: RegisterTest, open: ChainStoreFactory): void {
  test('a throwing listener does not break inserts and the other listeners still hear', () =>
    withStore(open, async (store) => {
      const warnings: Error[] = []
      const onWarning = (warning: Error) => warnings.push(warning)
      process.on('warning', onWarning)
      try {
        store.subscribe(() => {
          throw new Error('listener bug')
        })
        const heard: string[] = []
        store.subscribe((e) => heard.push(e.type))
        assert.deepEqual(await store.insert(mineValidChild(singleton, genesis0())), { inserted: true })
        assert.deepEqual(heard, ['inserted', 'cut'])
        await new Promise((resolve) => setImmediate(resolve))
        const warning = warnings[0] as Error & { code?: string }
        assert.equal(warning?.name, 'ListenerError')
        assert.equal(warning.code, 'LISTENER_FAILED')
        assert.equal((warning.cause as Error).message, 'listener bug')
      } finally {
        process.off('warning', onWarning)
      }
    }))

  test('an unsubscribed listener hears nothing more, and subscribing twice gives two subscriptions', () =>
    withStore(open, async (store) => {
      const heard: string[] = []
      const listener = (e: StoreEvent) => heard.push(e.type)
      const first = store.subscribe(listener)
      const second = store.subscribe(listener)
      const [a, b] = mineLine(singleton, genesis0(), 2)
      await store.insert(a!)
      assert.equal(heard.length, 4)
      first()
      await store.insert(b!)
      assert.equal(heard.length, 6)
      second()
      second()
      await store.insert(mineValidChild(singleton, b!.header))
      assert.equal(heard.length, 6)
    }))

  test('concurrent inserts are serialised and all succeed in call order', () =>
    withStore(open, async (store) => {
      const line = mineLine(singleton, genesis0(), 30)
      const events = recordEvents(store)
      const results = await Promise.all(line.map((block) => store.insert(block)))
      assert.ok(results.every((r) => r.inserted))
      assert.deepEqual(
        events.filter((e) => e.type === 'inserted').map((e) => e.header.height),
        line.map((b) => b.header.height),
      )
    }))

  test('concurrent inserts are written together, and a refused block refuses only its own caller', () =>
    withStore(open, async (store) => {
      const line = mineLine(singleton, genesis0(), 3)
      const bad: Block = { header: { ...line[1]!.header, weight: line[1]!.header.weight + 1n }, payload: line[1]!.payload }
      const events = recordEvents(store)
      const results = await Promise.allSettled([
        store.insert(line[0]!),
        store.insert(bad),
        store.insert(line[1]!),
        store.insert(line[1]!),
        store.insert(line[2]!),
      ])
      const outcomes = results.map((result) =>
        result.status === 'fulfilled' ? result.value : { refused: (result.reason as { code: string }).code },
      )
      assert.deepEqual(outcomes, [
        { inserted: true },
        { refused: 'INVALID_BLOCK' },
        { inserted: true },
        { inserted: false },
        { inserted: true },
      ])
      assert.deepEqual(
        events.filter((e) => e.type === 'inserted').map((e) => e.header.height),
        [1, 2, 3],
      )
      assert.equal(store.cut().get(0)?.height, 3)
    }))

  test('an insert called after an insertMany that is still queued is written after it', () =>
    withStore(open, async (store) => {
      const line = mineLine(singleton, genesis0(), 4)
      const results = await Promise.all([store.insert(line[0]!), store.insertMany([line[1]!, line[2]!]), store.insert(line[3]!)])
      assert.deepEqual(results, [{ inserted: true }, 2, { inserted: true }])
      assert.equal(store.cut().get(0)?.height, 4)
    }))

  test('close waits for queued inserts, and every later call throws STORE_CLOSED', async () => {
    const store = await open('test-singleton', { cutPolicy: 'fork-choice' })
    const line = mineLine(singleton, genesis0(), 3)
    const pending = store.insertMany(line)
    await store.close()
    assert.equal(await pending, 3)
    await store.close()
    const hash = line[0]!.header.hash
    assert.throws(() => store.subscribe(() => {}), { code: 'STORE_CLOSED', name: 'StoreClosedError' })
    const calls: Array<() => Promise<unknown>> = [
      () => store.insert(line[0]!),
      () => store.insertMany(line),
      () => store.getHeader(hash),
      () => store.getHeaderBinary(hash),
      () => store.getStoredHeader(hash),
      () => store.getBlockJson(hash),
      () => store.getBlocksJson([hash]),
      () => store.getPayloadJson(hash),
      () => store.getRefs([hash]),
      () => store.ancestorAt(hash, 0),
      () => store.readRangeBlocks([]),
      () => collect(store.range({ chain: 0 })),
    ]
    for (const call of calls) await assert.rejects(call(), { code: 'STORE_CLOSED' })
  })
}
