import { genesisBlock, getNetwork, MAX_U256 } from '@weft/block'
import t from 'tap'
import { openStore } from '../src/index.js'
import { blockKey, payloadKey } from '../src/keys.js'
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
