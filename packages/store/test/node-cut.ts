import { genesisBlock, getNetwork, headerToJsonText } from '@weft/block'
import t from 'tap'
import type { StoreEvent } from '../src/index.js'
import { openStore } from '../src/index.js'
import { blockKey } from '../src/keys.js'
import { makePayload, mineLine, mineValidChild } from '../src/suite/chain-miner.js'
import { editFolder, open } from './fixtures/level.js'

const singleton = getNetwork('test-singleton')
const genesis0 = () => genesisBlock(singleton, 0).header

t.test('a reorg walk that meets a missing ancestor is CORRUPT_STORE, writes nothing and leaves the cut', async (t) => {
  const path = t.testdir()
  const store = await openStore({ path, network: 'test-singleton' })
  const [a, b] = mineLine(singleton, genesis0(), 2)
  await store.insertMany([a!, b!])
  await store.close()
  // The walk reads block records by height: the one it needs is gone.
  await editFolder(path, (db) => db.del(blockKey(0, 1, a!.header.hash)))
  const damaged = await open(t, 'test-singleton', path)
  const heavier = mineLine(singleton, genesis0(), 3, { payload: makePayload('walk') })
  await t.rejects(damaged.insertMany(heavier), { code: 'CORRUPT_STORE', message: /ancestor/ })
  t.equal(await damaged.getHeader(heavier[0]!.header.hash), undefined)
  t.same(damaged.cut().get(0), b!.header)
})

t.test('a reorg walk that meets a missing ancestor on the winning branch is CORRUPT_STORE too', async (t) => {
  const path = t.testdir()
  const store = await openStore({ path, network: 'test-singleton' })
  const main = mineLine(singleton, genesis0(), 3)
  const side = mineLine(singleton, genesis0(), 2, { payload: makePayload('side') })
  await store.insertMany([...main, ...side])
  await store.close()
  await editFolder(path, (db) => db.del(blockKey(0, 1, side[0]!.header.hash)))
  const damaged = await open(t, 'test-singleton', path)
  const overtaking = mineLine(singleton, side[1]!.header, 2)
  await t.rejects(damaged.insertMany(overtaking), {
    code: 'CORRUPT_STORE',
    message: new RegExp(side[0]!.header.hash.toString('base64url')),
  })
  t.same(damaged.cut().get(0), main[2]!.header)
})

t.test('a reorg 1,000 blocks deep, read from disk after a reopen, announces the whole winning branch', async (t) => {
  const path = t.testdir()
  const store = await openStore({ path, network: 'test-singleton' })
  const g = genesis0()
  const main = mineLine(singleton, g, 1000)
  const side = mineLine(singleton, g, 999, { payload: makePayload('cold') })
  // Orphans beside the side branch, so that the walk passes several blocks at many heights.
  const orphans = side
    .filter((_, index) => index % 3 === 0)
    .map((block, index) => mineValidChild(singleton, block.header, { payload: makePayload(`orphan-${index}`) }))
  await store.insertMany(main)
  await store.insertMany(side)
  await store.insertMany(orphans)
  await store.close()
  // Reopened, the store holds only the heads in memory: every ancestor comes from the scan.
  const reopened = await open(t, 'test-singleton', path)
  const events: StoreEvent[] = []
  reopened.subscribe((event) => events.push(event))
  const overtaking = mineLine(singleton, side.at(-1)!.header, 2)
  await reopened.insertMany(overtaking)
  const best = events.find((event) => event.type === 'cut')
  t.ok(best?.type === 'cut')
  if (best?.type !== 'cut') return
  t.same(
    best.joined.map((joined) => joined.header.hash.toString('hex')),
    [...side, ...overtaking].map((block) => block.header.hash.toString('hex')),
  )
  t.same(
    best.joined.map((joined) => joined.headerJson.toString()),
    [...side, ...overtaking].map((block) => headerToJsonText(block.header, 'spec')),
  )
})
