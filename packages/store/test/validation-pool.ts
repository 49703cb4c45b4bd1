import { genesisBlock, getNetwork, MAX_U256 } from '@weft/block'
import t from 'tap'
import { encodeBlock } from '../src/block-encoding.js'
import { openStore } from '../src/index.js'
import { mineLine } from '../src/suite/chain-miner.js'
import { ValidationPool } from '../src/validation-pool.js'

const development = getNetwork('development')
const line = (length: number) => mineLine(development, genesisBlock(development, 0).header, length, { target: MAX_U256 >> 1n })

t.test('the pool encodes a batch on worker threads exactly as inline, in order', async (t) => {
  const pool = new ValidationPool(2)
  t.teardown(() => pool.close())
  const blocks = line(101)
  const pooled = await pool.encode(blocks)
  t.equal(pooled.length, 101)
  t.same(pooled, blocks.map(encodeBlock))
  t.ok(
    pooled.every((encoded) => Buffer.isBuffer(encoded.record) && Buffer.isBuffer(encoded.headerJson)),
    'buffers arrive as Buffers',
  )
  t.same(await pool.encode(blocks.slice(0, 3)), blocks.slice(0, 3).map(encodeBlock), 'a small batch is encoded inline')
})

t.test('a block that fails its hashing checks on a worker is refused with its violations', async (t) => {
  const store = await openStore({ path: t.testdir(), network: 'development', checkBraiding: false, validationThreads: 2 })
  t.teardown(() => store.close())
  const blocks = line(120)
  const bad = blocks[70]!
  blocks[70] = { header: { ...bad.header, nonce: bad.header.nonce + 1n }, payload: bad.payload }
  await t.rejects(store.insertMany(blocks), {
    code: 'INVALID_BLOCK',
    violations: [{ code: 'INVALID_BLOCK_HASH' }, { code: 'INVALID_POW' }],
  })
  t.equal(store.heads().get(0)?.height, 70, 'the blocks before it are written')
})

t.test('with no validation threads, bulk inserts validate on the calling thread', async (t) => {
  const store = await openStore({ path: t.testdir(), network: 'development', checkBraiding: false, validationThreads: 0 })
  t.teardown(() => store.close())
  t.equal(await store.insertMany(line(300)), 300)
  t.equal(store.heads().get(0)?.height, 300)
})

t.test('a closed pool encodes inline', async (t) => {
  const pool = new ValidationPool(1)
  await pool.close()
  const blocks = line(40)
  t.same(await pool.encode(blocks), blocks.map(encodeBlock))
})
