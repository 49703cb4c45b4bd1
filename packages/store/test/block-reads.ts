import { genesisBlock, getNetwork, MAX_U256 } from '@weft/block'
import t from 'tap'
import { BlockReads } from '../src/block-reads.js'
import { openStore } from '../src/index.js'
import { blockKey, hashIndexKey, payloadKey } from '../src/keys.js'
import { makePayload, mineChild, mineLine } from '../src/suite/chain-miner.js'
import { editFolder, open } from './fixtures/level.js'

const development = getNetwork('development')
const genesis0 = () => genesisBlock(development, 0).header

t.test('records the layout promises but that are missing are reported as CORRUPT_STORE', async (t) => {
  const path = t.testdir()
  const store = await openStore({ path, network: 'development', checkBraiding: false })
  const payload = makePayload('corrupt')
  const [a, b] = mineLine(development, genesis0(), 2, { payload, target: MAX_U256 >> 1n })
  // A lighter sibling of b with the same payload, written last: the payload index names it.
  const orphan = mineChild(development, a!.header, { payload, nonce: 1n })
  await store.insertMany([a!, b!])
  await store.insert(orphan)
  await store.close()
  await editFolder(path, async (db) => {
    t.same(await db.get(payloadKey(orphan.header.payloadHash)), blockKey(0, 2, orphan.header.hash))
    await db.del(blockKey(0, 1, a!.header.hash))
    await db.del(blockKey(0, 2, orphan.header.hash))
  })
  const damaged = await open(t, 'development', path)
  await t.rejects(damaged.getHeader(a!.header.hash), { code: 'CORRUPT_STORE', name: 'CorruptStoreError' })
  await t.rejects(damaged.getHeaderBinary(a!.header.hash), { code: 'CORRUPT_STORE' })
  await t.rejects(damaged.getBlocksJson([a!.header.hash]), { code: 'CORRUPT_STORE' })
  await t.rejects(damaged.getBlockJson(orphan.header.hash), { code: 'CORRUPT_STORE' })
  await t.rejects(damaged.getPayloadJson(orphan.header.payloadHash), { code: 'CORRUPT_STORE', message: /payload index/ })
  await t.rejects(damaged.insert(mineChild(development, a!.header)), { code: 'CORRUPT_STORE' })
  // A reorg walk that meets the hole is refused too, before anything is written.
  const heavy = mineChild(development, genesis0(), { target: MAX_U256 >> 6n, payload: makePayload('walk') })
  await t.rejects(damaged.insert(heavy), { code: 'CORRUPT_STORE' })
  t.equal(await damaged.getHeader(heavy.header.hash), undefined)
})

t.test('storedAmong tells stored blocks from others as the hash index does, few or many, near heights or far apart', async (t) => {
  const path = t.testdir()
  const store = await openStore({ path, network: 'development', checkBraiding: false })
  const line0 = mineLine(development, genesis0(), 60)
  const line1 = mineLine(development, genesisBlock(development, 1).header, 5)
  // Siblings never stored: beside a stored block, above the line, and on a chain with none stored.
  const sibling = mineChild(development, line0[9]!.header, { nonce: 1n })
  const above = mineChild(development, line0[59]!.header)
  const elsewhere = mineLine(development, genesisBlock(development, 2).header, 2)
  await store.insertMany([...line0, ...line1])
  await store.close()
  // Heights 1-3, 10 and 11 (one span), 40 (another, past the gap), 60 and 61; two chains more.
  const asked = [
    ...[0, 1, 2, 9, 10, 39, 59].map((index) => line0[index]!),
    sibling,
    above,
    ...line1,
    ...elsewhere,
    genesisBlock(development, 0),
  ].map((block) => block.header)
  await editFolder(path, async (db) => {
    await db.open()
    const reads = new BlockReads(db)
    const expected = asked.map((header) => db.getSync(hashIndexKey(header.hash)) !== undefined)
    t.same(expected.filter(Boolean).length, 13, 'the stored ones: seven of chain 0, five of chain 1, a genesis block')
    t.same(await reads.storedAmong(asked), expected, `${asked.length} blocks, by range reads`)
    t.same(await reads.storedAmong(asked.slice(5, 12)), expected.slice(5, 12), 'a few, by the hash index')
    t.same(await reads.storedAmong([]), [])
  })
})
