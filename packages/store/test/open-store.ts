import { readFileSync } from 'node:fs'
import { genesisBlock, getNetwork } from '@weft/block'
import t from 'tap'
import { openStore } from '../src/index.js'
import { blockKey, hashIndexKey, headKey } from '../src/keys.js'
import { mineLine } from '../src/suite/chain-miner.js'
import { editFolder, open } from './fixtures/level.js'

const development = getNetwork('development')
const text = (hash: Uint8Array): string => Buffer.from(hash).toString('base64url')
const genesis0 = () => genesisBlock(development, 0).header

t.test('a fresh mainnet01 store starts with the real genesis blocks of the vectors, chains 10-19 at height 852054', async (t) => {
  const store = await open(t, 'mainnet01')
  const vectors = JSON.parse(readFileSync(new URL('../../../fixtures/vectors/genesis-mainnet01.json', import.meta.url), 'utf8')) as Array<{
    header: { hash: string; chainId: number; height: number }
  }>
  t.equal(store.cut().size, 20)
  for (const vector of vectors) {
    const head = store.cut().get(vector.header.chainId)
    t.equal(head && text(head.hash), vector.header.hash)
    t.equal(head?.height, vector.header.height)
  }
  t.equal(store.cut().get(10)?.height, 852054)
})

t.test('the cut survives a reopen', async (t) => {
  const path = t.testdir()
  const store = await openStore({ path, network: 'development' })
  const line = mineLine(development, genesisBlock(development, 4).header, 3)
  await store.insertMany(line)
  await store.close()
  const reopened = await open(t, 'development', path)
  t.same(reopened.cut().get(4), line[2]!.header)
  t.same(reopened.cut().get(0), genesis0())
})

t.test('a folder keeps its network: opening it as another is NETWORK_MISMATCH', async (t) => {
  const path = t.testdir()
  await (await openStore({ path, network: 'test-singleton' })).close()
  await t.rejects(openStore({ path, network: 'development' }), { code: 'NETWORK_MISMATCH', name: 'NetworkMismatchError' })
  // The refused open closed the database again, so the right network still opens.
  const store = await open(t, 'test-singleton', path)
  t.equal(store.cut().size, 1)
})

t.test('a folder held by another open store is STORE_OPEN_FAILED', async (t) => {
  const path = t.testdir()
  await open(t, 'development', path)
  await t.rejects(openStore({ path, network: 'development' }), { code: 'STORE_OPEN_FAILED', name: 'StoreOpenError' })
})

t.test('genesis blocks missing from an existing folder are put back on open', async (t) => {
  const path = t.testdir()
  await (await openStore({ path, network: 'development' })).close()
  const g = genesisBlock(development, 3).header
  await editFolder(path, (db) =>
    db.batch([
      { type: 'del', key: blockKey(3, 0, g.hash) },
      { type: 'del', key: hashIndexKey(g.hash) },
      { type: 'del', key: headKey(3) },
    ]),
  )
  const store = await open(t, 'development', path)
  t.same(await store.getHeader(g.hash), g)
  t.same(store.cut().get(3), g)
})

t.test('a best head without its block record makes open fail with CORRUPT_STORE', async (t) => {
  const path = t.testdir()
  const store = await openStore({ path, network: 'development' })
  const [a] = mineLine(development, genesis0(), 1)
  await store.insert(a!)
  await store.close()
  await editFolder(path, (db) => db.del(hashIndexKey(a!.header.hash)))
  await t.rejects(openStore({ path, network: 'development' }), { code: 'CORRUPT_STORE', message: /best head/ })
})
