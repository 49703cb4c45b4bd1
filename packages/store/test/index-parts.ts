// The parts of the transaction index on their own: the state in memory, the packed entries that
// travel from a validation thread, and where a catch-up starts.
import { getNetwork } from '@weft/block'
import { indexOperations } from '@weft/index'
import t from 'tap'
import { IndexKeeper } from '../src/index-keeper.js'
import { blockIndexOperations, packIndexOperations, unpackIndexOperations } from '../src/index-operations.js'
import { catchUpStart, openIndexState } from '../src/index-state.js'
import { devnetPayloads } from './fixtures/indexed-blocks.js'
import { editFolder } from './fixtures/level.js'

const hash = Buffer.alloc(32, 9)

t.test('the keeper says from which height each chain is complete, and whether blocks get entries', async (t) => {
  const complete = new IndexKeeper({ state: 'complete' })
  t.equal(complete.completeFrom(3), 0)
  t.equal(complete.writes, true)
  const disabled = new IndexKeeper({ state: 'disabled' })
  t.equal(disabled.completeFrom(3), Number.POSITIVE_INFINITY, 'a disabled index is complete nowhere')
  t.equal(disabled.writes, false)
  const catching = new IndexKeeper({ state: 'catching-up', below: new Map([[0, 7]]), total: 7 })
  t.equal(catching.completeFrom(0), 7)
  t.equal(catching.completeFrom(1), 0, 'a chain without a position has nothing to catch up')
  t.equal(catching.writes, true, 'new blocks get their entries while the catch-up runs')
  catching.move({ state: 'complete' })
  t.equal(catching.completeFrom(0), 0)
})

t.test("a block's entries packed into one buffer unpack to the same operations; a buffer cut short is CORRUPT_STORE", async (t) => {
  const payload = devnetPayloads.find((each) => each.transactions.length > 2)!
  const operations = indexOperations({ chain: 4, height: 77, hash, payload })
  const packed = blockIndexOperations(4, 77, hash, payload)
  t.same(packed, packIndexOperations(operations))
  const unpacked = unpackIndexOperations(new Uint8Array(packed.buffer, packed.byteOffset, packed.byteLength))
  t.same(
    unpacked.map(({ key, value }) => [Buffer.from(key).toString('hex'), Buffer.from(value).toString('hex')]),
    operations.map(({ key, value }) => [key.toString('hex'), value.toString('hex')]),
    'from a plain Uint8Array too, as a thread hands it over',
  )
  t.same(unpackIndexOperations(Buffer.alloc(0)), [])
  t.throws(() => unpackIndexOperations(packed.subarray(0, 3)), { code: 'CORRUPT_STORE', message: /inside a length/ })
  t.throws(() => unpackIndexOperations(packed.subarray(0, 10)), { code: 'CORRUPT_STORE', message: /inside an operation/ })
  t.same(blockIndexOperations(4, 2 ** 32, hash, payload), Buffer.alloc(0), 'a block above the heights index keys hold gets no entries')
  t.ok(blockIndexOperations(4, 2 ** 32 - 1, hash, payload).length > 0)
})

t.test('a catch-up starts above every chain’s highest block; a store with no block at all is complete', async (t) => {
  const network = getNetwork('development')
  const path = t.testdir()
  await editFolder(path, async (db) => {
    const start = await catchUpStart(db, network)
    t.equal(start.size, 20)
    t.ok(
      [...start.values()].every((height) => height === 0),
      'a chain with no block starts at 0',
    )
    t.same(await openIndexState(db, network, { index: true, created: false }), { state: 'complete' })
  })
})
