import assert from 'node:assert/strict'
import { blockToJsonText, genesisBlock, getNetwork } from '@weft/block'
import type { RegisterTest } from '@weft/traversal/suite'
import { makePayload, mineLine } from './chain-miner.js'
import { type ChainStoreFactory, collect, type StoreCapabilities, withStore } from './context.js'

const singleton = getNetwork('test-singleton')
const genesis = () => genesisBlock(singleton, 0)

/** Snapshots and the transaction index, each as the implementation declares it: the part, or a store that says it lacks it. */
export function capabilityTests(test: RegisterTest, open: ChainStoreFactory, capabilities: StoreCapabilities): void {
  if (capabilities.snapshots)
    test('a snapshot holds the cut and every block of its moment, parents first, while the store takes more', () =>
      withStore(open, async (store) => {
        const line = mineLine(singleton, genesis().header, 4, { payload: makePayload('snapshot', 1) })
        await store.insertMany(line.slice(0, 3))
        const snapshot = store.snapshot()
        try {
          await store.insert(line[3]!)
          assert.equal(store.cut().get(0)?.height, 4)
          assert.deepEqual(snapshot.cut.get(0), line[2]!.header)
          assert.equal(snapshot.network.name, 'test-singleton')
          const texts = (await collect(snapshot.blocks())).map((json) => json.toString())
          assert.deepEqual(
            texts,
            [genesis(), ...line.slice(0, 3)].map((block) => blockToJsonText(block, 'spec')),
          )
        } finally {
          await snapshot.close()
          await snapshot.close()
        }
      }))
  else
    test('a store without snapshots says so when asked for one', () =>
      withStore(open, async (store) => {
        assert.throws(() => store.snapshot(), Error)
      }))

  if (capabilities.transactionIndex)
    test('the transaction index answers for a stored block without transactions, and not for an unknown one', () =>
      withStore(open, async (store) => {
        const [block] = mineLine(singleton, genesis().header, 1, { payload: makePayload('no-transactions') })
        await store.insert(block!)
        assert.notEqual(store.index.status().state, 'disabled')
        assert.deepEqual(await store.index.blockTransactions(block!.header.hash), [])
        assert.equal(await store.index.blockTransactions(Buffer.alloc(32, 9)), undefined)
      }))
  else
    test('a store without a transaction index says it is disabled, and every lookup rejects with INDEX_DISABLED', () =>
      withStore(open, async (store) => {
        assert.deepEqual(store.index.status(), { state: 'disabled' })
        assert.deepEqual(await store.index.caughtUp(), { state: 'disabled' })
        const disabled = { code: 'INDEX_DISABLED', name: 'IndexDisabledError' }
        await assert.rejects(store.index.transaction('x'), disabled)
        await assert.rejects(store.index.pactSteps('x'), disabled)
        await assert.rejects(store.index.blockTransactions(genesis().header.hash), disabled)
        await assert.rejects(store.index.events({ module: 'coin' }), disabled)
        await assert.rejects(store.index.transfers({ account: 'k:x' }), disabled)
        await assert.rejects(store.index.blocks(), disabled)
        await assert.rejects(store.index.eventNames(), disabled)
      }))
}
