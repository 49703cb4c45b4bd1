import { genesisBlock, getNetwork } from '@weft/block'
import t from 'tap'
import { openStore } from '../src/index.js'
import { blockKey } from '../src/keys.js'
import { makePayload, mineChild, mineLine } from '../src/suite/chain-miner.js'
import { editFolder, open, payloadCount } from './fixtures/level.js'

const development = getNetwork('development')
const genesis0 = () => genesisBlock(development, 0).header

t.test('a payload shared by many blocks is indexed once, each block holding its copy', async (t) => {
  const path = t.testdir()
  const store = await openStore({ path, network: 'development', checkBraiding: false })
  const line = mineLine(development, genesis0(), 3, { payload: makePayload('shared-by-all', 2) })
  await store.insertMany(line.slice(0, 1))
  await store.insertMany(line.slice(1))
  await store.close()
  // Every genesis block shares one payload; the line adds exactly one more to the payload index.
  t.equal(await payloadCount(path), 2)
  const reopened = await open(t, 'development', path)
  for (const block of line)
    t.match((await reopened.getBlockJson(block.header.hash))?.toString(), /"payloadWithOutputs":\{"transactions":\[\[/)
})

t.test('insertMany across batches indexes a payload shared with an earlier batch once and skips repeated blocks', async (t) => {
  const path = t.testdir()
  const store = await openStore({ path, network: 'development', checkBraiding: false })
  const line = mineLine(development, genesis0(), 300, { payload: makePayload('shared-across-batches', 1) })
  // Index 260 is in the second batch of 256, validated while the first is still being written.
  t.equal(await store.insertMany([...line.slice(0, 260), line[10]!, ...line.slice(260)]), 300)
  t.equal(store.cut().get(0)?.height, 300)
  await store.close()
  t.equal(await payloadCount(path), 2, 'the genesis payload and the shared one')
})

t.test('a corrupt record met by a later batch of insertMany refuses the call after the earlier batches are written', async (t) => {
  const path = t.testdir()
  const store = await openStore({ path, network: 'development', checkBraiding: false })
  const [a, b] = mineLine(development, genesis0(), 2, { payload: makePayload('corrupt-later') })
  await store.insertMany([a!, b!])
  await store.close()
  await editFolder(path, (db) => db.del(blockKey(0, 1, a!.header.hash)))
  const damaged = await open(t, 'development', path)
  const other = mineLine(development, genesisBlock(development, 1).header, 256)
  await t.rejects(damaged.insertMany([...other, mineChild(development, a!.header)]), { code: 'CORRUPT_STORE' })
  t.ok(await damaged.getHeader(other[255]!.header.hash), 'the first batch was written')
  t.equal(damaged.cut().get(1)?.height, 256)
})
