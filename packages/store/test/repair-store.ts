import { statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Block, genesisBlock, getNetwork } from '@weft/block'
import { ClassicLevel } from 'classic-level'
import t from 'tap'
import { DamageWatch, type StoreDamage } from '../src/damage-watch.js'
import { openStore, repairStore, StoreDamagedError } from '../src/index.js'
import { blockKey, encodeHashRecord, hashIndexKey, headKey, metaKey, payloadKey } from '../src/keys.js'
import { makePayload, mineLine } from '../src/suite/chain-miner.js'
import { compactFolder, flipBytes, largestTable } from './fixtures/damage.js'
import { editFolder } from './fixtures/level.js'

const network = getNetwork('test-singleton')

// A store of 200 blocks on a line, closed and compacted into tables: the blocks, and the folder.
async function storeOfLine(path: string, options: { index?: boolean; cutPolicy?: 'adopted' } = {}): Promise<Block[]> {
  const store = await openStore({ path, network: 'test-singleton', validationThreads: 0, ...options })
  const line = mineLine(network, genesisBlock(network, 0).header, 200, { payload: makePayload('line', 4) })
  await store.insertMany(line)
  await store.close()
  await compactFolder(path)
  return line
}

t.test('a read that meets a damaged table rejects with STORE_DAMAGED, told once, and the other blocks read', async (t) => {
  const path = t.testdir()
  const line = await storeOfLine(path)
  flipBytes(largestTable(path), 0.3, 64)
  const told: StoreDamage[] = []
  const store = await openStore({ path, network: 'test-singleton', validationThreads: 0, onDamage: (damage) => told.push(damage) })
  t.teardown(() => store.close())
  t.equal(store.damage?.(), undefined, 'no damage before a read meets it')
  const refused: number[] = []
  for (const block of line) {
    try {
      t.ok(await store.getBlockJson(block.header.hash))
    } catch (error) {
      t.ok(error instanceof StoreDamagedError, 'the refusal is STORE_DAMAGED')
      t.match(error, { code: 'STORE_DAMAGED', path, detail: /^Corruption: /, message: /weft-server --repair/ })
      refused.push(block.header.height)
    }
  }
  t.ok(refused.length > 0 && refused.length < 20, `a few blocks are refused (${refused.length}), the others read`)
  await t.rejects(
    (async () => {
      for await (const _ of store.range({ chain: 0 })) void _
    })(),
    { code: 'STORE_DAMAGED' },
    'a range read over the damage is refused, not cut short',
  )
  t.equal(told.length, 1, 'told once')
  t.match(store.damage?.(), { path, detail: /^Corruption: /, refusals: refused.length + 1 })
})

t.test('the damage watch converts the synchronous reads too, and leaves other errors as they are', async (t) => {
  const path = t.testdir()
  const line = await storeOfLine(path)
  flipBytes(largestTable(path), 0.3, 64)
  const db = new ClassicLevel<Buffer, Buffer>(path, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  const watch = new DamageWatch(path, undefined)
  watch.watch(db)
  await db.open()
  t.teardown(() => db.close())
  let refused = 0
  for (const { header } of line) {
    try {
      db.getSync(blockKey(0, header.height, header.hash))
    } catch (error) {
      t.match(error, { code: 'STORE_DAMAGED' })
      refused += 1
    }
  }
  t.ok(refused > 0, 'a synchronous read of a damaged block is refused')
  const other = new Error('another failure')
  t.equal(watch.convert(other), other)
})

t.test('a store damaged where its open reads fails to open, reason corrupt; the repair mends it', async (t) => {
  const path = t.testdir()
  await storeOfLine(path)
  // Near the end of the table: the head records and the blocks they name (found by flipping at each thirtieth of the table).
  flipBytes(largestTable(path), 0.95, 16)
  await t.rejects(openStore({ path, network: 'test-singleton' }), { code: 'STORE_OPEN_FAILED', reason: 'corrupt' })
  const report = await repairStore({ path, network: 'test-singleton' })
  t.ok(report.damagedTables.length > 0, 'the report quotes the damaged tables')
  t.match(report.chains[0], { chain: 0, headBefore: 200 })
  const store = await openStore({ path, network: 'test-singleton', validationThreads: 0 })
  t.teardown(() => store.close())
  t.equal(store.heads().get(0)!.height, report.chains[0]!.headAfter ?? 0, 'the store stands where the repair left it (genesis put back)')
})

t.test(
  'the repair keeps the whole part of the store and drops what stands above a loss, and inserting the lost blocks again makes it whole',
  async (t) => {
    const path = t.testdir()
    const line = await storeOfLine(path)
    flipBytes(largestTable(path), 0.3, 64)
    // What damage may leave besides: records that do not decode, records under another block's key,
    // index entries of blocks never stored (one of a chain the network lacks), a head whose index
    // entry does not decode, a payload entry lost.
    await editFolder(path, async (db) => {
      const fifth = line[4]!.header
      const record = (await db.get(blockKey(0, 5, fifth.hash)))!
      const last = line.at(-1)!.header
      await db.batch([
        { type: 'put', key: blockKey(0, 251, fifth.hash), value: record },
        { type: 'put', key: blockKey(0, 200, Buffer.alloc(32, 4)), value: (await db.get(blockKey(0, 200, last.hash)))! },
        { type: 'put', key: hashIndexKey(Buffer.alloc(32, 5)), value: encodeHashRecord(7, 250, Buffer.alloc(32)) },
        { type: 'put', key: headKey(5), value: Buffer.alloc(32, 7) },
        { type: 'del', key: payloadKey(genesisBlock(network, 0).header.payloadHash) },
        { type: 'del', key: hashIndexKey(line[1]!.header.hash) },
        { type: 'put', key: hashIndexKey(Buffer.alloc(32, 7)), value: Buffer.of(1, 2, 3) },
        { type: 'put', key: hashIndexKey(Buffer.alloc(32, 8)), value: encodeHashRecord(0, 250, Buffer.alloc(32)) },
        { type: 'put', key: blockKey(0, 250, Buffer.alloc(32, 9)), value: Buffer.of(1, 2, 3) },
        { type: 'put', key: payloadKey(line[0]!.header.payloadHash), value: blockKey(0, 5, Buffer.alloc(32, 9)) },
        { type: 'put', key: payloadKey(Buffer.alloc(32, 6)), value: Buffer.of(1) },
        { type: 'put', key: metaKey('index'), value: Buffer.from('not json') },
        { type: 'put', key: metaKey('cut'), value: Buffer.of(1) },
      ])
    })
    const report = await repairStore({ path, windowHeights: 64 })
    t.equal(report.network, 'test-singleton', 'the network is read from the store')
    t.match(report.damagedTables, [/Corruption/])
    const [chain] = report.chains
    t.ok(chain !== undefined && chain.lostFrom !== undefined && chain.headAfter !== undefined)
    const lostFrom = chain!.lostFrom!
    t.equal(chain!.headBefore, 200)
    t.equal(chain!.headAfter, lostFrom - 1, 'the chain is whole up to just below its lowest loss')
    t.equal(chain!.blocks, lostFrom, 'every block below it is kept')
    t.ok(chain!.dropped > 0, 'the blocks above are dropped')
    t.equal(report.cutKept, false, 'a malformed cut record is dropped')
    t.equal(report.index, 'rebuilding')

    const store = await openStore({ path, network: 'test-singleton', validationThreads: 0 })
    t.teardown(() => store.close())
    t.equal(store.heads().get(0)!.height, lostFrom - 1)
    for (const { header } of line) {
      const found = await store.getBlockJson(header.hash)
      t.equal(found !== undefined, header.height < lostFrom, `block ${header.height} ${header.height < lostFrom ? 'kept' : 'dropped'}`)
    }
    t.ok(await store.getPayloadJson(line[0]!.header.payloadHash), 'the shared payload is found through a kept block')
    t.ok(await store.getPayloadJson(genesisBlock(network, 0).header.payloadHash), 'a payload entry lost is written again')
    t.ok(await store.getHeader(line[1]!.header.hash), 'a hash index entry lost is written again')
    t.equal(await store.insertMany(line), 200 - lostFrom + 1, 'the lost blocks are taken again')
    t.equal(store.heads().get(0)!.height, 200)
    t.same(await store.index.caughtUp(), { state: 'complete' }, 'the index is written again')
  },
)

t.test('the repair refuses a store another process holds, a missing folder, and a network other than the store’s', async (t) => {
  const path = t.testdir()
  const store = await openStore({ path, network: 'test-singleton', validationThreads: 0 })
  await t.rejects(repairStore({ path }), { code: 'STORE_OPEN_FAILED', reason: 'locked' })
  await store.close()
  await t.rejects(repairStore({ path: join(path, 'missing') }), { code: 'STORE_OPEN_FAILED', reason: 'failed' })
  await t.rejects(repairStore({ path, network: 'development' }), { code: 'NETWORK_MISMATCH' })
  // A folder LevelDB cannot even open for damage is the repair's to mend, its heads before unknown.
  writeFileSync(join(path, 'CURRENT'), 'x')
  t.match((await repairStore({ path })).chains[0], { headBefore: undefined, headAfter: 0 })
  await editFolder(path, (db) => db.del(metaKey('network')))
  await t.rejects(repairStore({ path }), { code: 'CORRUPT_STORE', message: /naming the network/ })
  t.match(await repairStore({ path, network: 'test-singleton' }), { network: 'test-singleton', cutKept: undefined, damagedTables: [] })
})

t.test('a store that keeps no index stays without one after the repair, and an adopted cut whose heads are whole is kept', async (t) => {
  const path = t.testdir()
  await storeOfLine(path, { index: false, cutPolicy: 'adopted' })
  t.ok(statSync(largestTable(path)).size > 0)
  t.match(await repairStore({ path }), { index: 'disabled', cutKept: true, damagedTables: [] })
})
