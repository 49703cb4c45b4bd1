import { type Block, genesisBlock, getNetwork, type Header } from '@weft/block'
import t from 'tap'
import { BlockReads } from '../src/block-reads.js'
import { openStore } from '../src/index.js'
import { blockKey, hashIndexKey, payloadKey } from '../src/keys.js'
import { openImportStore } from '../src/open-store.js'
import { makePayload, mineLine, mineLooseChild, mineValidChild } from '../src/suite/chain-miner.js'
import { editFolder, open } from './fixtures/level.js'

const development = getNetwork('development')
const singleton = getNetwork('test-singleton')
const genesis0 = () => genesisBlock(singleton, 0).header
// Lines of development chains growing apart, for a store that takes them as an import does (reads are what is tested).
const looseLine = (parent: Header, length: number, salt = 0): Block[] => {
  const blocks: Block[] = []
  for (let tip = parent; blocks.length < length; tip = blocks.at(-1)!.header) blocks.push(mineLooseChild(development, tip, BigInt(salt)))
  return blocks
}

t.test('records the layout promises but that are missing are reported as CORRUPT_STORE', async (t) => {
  const path = t.testdir()
  const store = await openStore({ path, network: 'test-singleton' })
  const payload = makePayload('corrupt')
  const [a, b] = mineLine(singleton, genesis0(), 2, { payload })
  // A sibling of b with the same payload, written last: the payload index names it.
  const orphan = mineValidChild(singleton, a!.header, { payload, step: 2_000_000 })
  await store.insertMany([a!, b!])
  await store.insert(orphan)
  await store.close()
  await editFolder(path, async (db) => {
    t.same(await db.get(payloadKey(orphan.header.payloadHash)), blockKey(0, 2, orphan.header.hash))
    await db.del(blockKey(0, 1, a!.header.hash))
    await db.del(blockKey(0, 2, orphan.header.hash))
  })
  const damaged = await open(t, 'test-singleton', path)
  await t.rejects(damaged.getHeader(a!.header.hash), { code: 'CORRUPT_STORE', name: 'CorruptStoreError' })
  await t.rejects(damaged.getHeaderBinary(a!.header.hash), { code: 'CORRUPT_STORE' })
  await t.rejects(damaged.getBlocksJson([a!.header.hash]), { code: 'CORRUPT_STORE' })
  await t.rejects(damaged.getBlockJson(orphan.header.hash), { code: 'CORRUPT_STORE' })
  await t.rejects(damaged.getPayloadJson(orphan.header.payloadHash), { code: 'CORRUPT_STORE', message: /payload index/ })
  await t.rejects(damaged.insert(mineValidChild(singleton, a!.header)), { code: 'CORRUPT_STORE' })
  // A reorg walk that meets the hole is refused too, before anything is written.
  const heavier = mineLine(singleton, genesis0(), 3, { payload: makePayload('walk') })
  await t.rejects(damaged.insertMany(heavier), { code: 'CORRUPT_STORE' })
  t.equal(await damaged.getHeader(heavier[0]!.header.hash), undefined)
})

t.test('storedAmong tells stored blocks from others as the hash index does, few or many, near heights or far apart', async (t) => {
  const path = t.testdir()
  const store = await openImportStore({ path, network: 'development' })
  const line0 = looseLine(genesisBlock(development, 0).header, 60)
  const line1 = looseLine(genesisBlock(development, 1).header, 5)
  // Siblings never stored: beside a stored block, above the line, and on a chain with none stored.
  // (Nonces counted up from 2^40: the line's own, counted up from 0, find theirs in a few tries.)
  const sibling = mineLooseChild(development, line0[9]!.header, 1n << 40n)
  const above = mineLooseChild(development, line0[59]!.header, 0n)
  const elsewhere = looseLine(genesisBlock(development, 2).header, 2)
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
