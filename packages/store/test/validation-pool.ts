import { join } from 'node:path'
import { type Block, blockToJsonText, genesisBlock, getNetwork, powHash } from '@weft/block'
import t from 'tap'
import { encodeBlock, encodeBlockText } from '../src/block-encoding.js'
import { type ChainStore, openStore } from '../src/index.js'
import { mineLine } from '../src/suite/chain-miner.js'
import { ValidationPool } from '../src/validation-pool.js'

const singleton = getNetwork('test-singleton')
const line = (length: number) => mineLine(singleton, genesisBlock(singleton, 0).header, length)
const texts = (blocks: ReturnType<typeof line>, profile: 'spec' | 'chainweb' = 'spec'): Buffer[] =>
  blocks.map((block) => Buffer.from(blockToJsonText(block, profile)))

t.test('the pool encodes a batch on worker threads exactly as inline, in order', async (t) => {
  const pool = new ValidationPool(2)
  t.teardown(() => pool.close())
  const blocks = line(101)
  const pooled = await pool.encode(blocks)
  t.equal(pooled.length, 101)
  t.same(
    pooled,
    blocks.map((block) => encodeBlock(block)),
  )
  t.ok(
    pooled.every((encoded) => Buffer.isBuffer(encoded.record) && Buffer.isBuffer(encoded.headerJson)),
    'buffers arrive as Buffers',
  )
  t.same(
    await pool.encode(blocks.slice(0, 3)),
    blocks.slice(0, 3).map((block) => encodeBlock(block)),
    'a small batch is encoded inline',
  )
})

// The same block refused on a worker by insertMany and by insertManyJson: its nonce changed, so its
// hash and its proof of work no longer hold; the blocks before it are written.
for (const [name, insert] of [
  ['insertMany', (store: ChainStore, blocks: Block[]) => store.insertMany(blocks)],
  ['insertManyJson', (store: ChainStore, blocks: Block[]) => store.insertManyJson(texts(blocks))],
] as const) {
  t.test(`${name}: a block that fails its hashing checks on a worker is refused with its violations`, async (t) => {
    const store = await openStore({ path: t.testdir(), network: 'test-singleton', validationThreads: 2 })
    t.teardown(() => store.close())
    const blocks = line(120)
    const bad = blocks[70]!
    // The next nonce that misses the target: the hash and the proof of work both fail.
    let nonce = bad.header.nonce + 1n
    while (powHash({ ...bad.header, nonce }) <= bad.header.target) nonce++
    blocks[70] = { header: { ...bad.header, nonce }, payload: bad.payload }
    await t.rejects(insert(store, blocks), {
      code: 'INVALID_BLOCK',
      violations: [{ code: 'INVALID_BLOCK_HASH' }, { code: 'INVALID_POW' }],
    })
    t.equal(store.heads().get(0)?.height, 70, 'the blocks before it are written')
  })
}

t.test('with no validation threads, bulk inserts validate on the calling thread', async (t) => {
  const store = await openStore({ path: t.testdir(), network: 'test-singleton', validationThreads: 0 })
  t.teardown(() => store.close())
  t.equal(await store.insertMany(line(300)), 300)
  t.equal(store.heads().get(0)?.height, 300)
})

t.test('a closed pool encodes inline', async (t) => {
  const pool = new ValidationPool(1)
  await pool.close()
  const blocks = line(40)
  t.same(
    await pool.encode(blocks),
    blocks.map((block) => encodeBlock(block)),
  )
})

t.test('the pool parses and encodes JSON texts on worker threads exactly as inline, in order', async (t) => {
  const pool = new ValidationPool(2)
  t.teardown(() => pool.close())
  const blocks = line(90)
  const pooled = await pool.encodeTexts(texts(blocks))
  t.same(
    pooled,
    blocks.map((block) => encodeBlock(block)),
  )
  t.same(
    pooled,
    texts(blocks).map((text) => encodeBlockText(text)),
  )
  const mixed = [...texts(blocks.slice(0, 40)), Buffer.from('{"header":{}}'), Buffer.from('not json')]
  const answers = await pool.encodeTexts(mixed)
  t.same(
    answers.slice(0, 40),
    blocks.slice(0, 40).map((block) => encodeBlock(block)),
  )
  t.match(answers.slice(40), [{ unreadable: String }, { unreadable: String }], 'a text that is not a block says why')
  t.match(
    await pool.encodeTexts(mixed.slice(38)),
    [{ work: Object }, { work: Object }, { unreadable: String }, { unreadable: String }],
    'inline too',
  )
})

for (const validationThreads of [2, 0]) {
  t.test(`insertManyJson writes what insertMany writes (${validationThreads} validation threads)`, async (t) => {
    const blocks = line(600)
    const fromBlocks = await openStore({ path: join(t.testdir(), 'blocks'), network: 'test-singleton' })
    const fromTexts = await openStore({ path: join(t.testdir(), 'texts'), network: 'test-singleton', validationThreads })
    t.teardown(() => Promise.all([fromBlocks.close(), fromTexts.close()]))
    t.equal(await fromBlocks.insertMany(blocks), 600)
    // Either profile's text: the first half as the spec profile writes it, the rest as chainweb does.
    t.equal(await fromTexts.insertManyJson([...texts(blocks.slice(0, 300)), ...texts(blocks.slice(300), 'chainweb')]), 600)
    t.equal(await fromTexts.insertManyJson(texts(blocks.slice(500))), 0, 'stored blocks are skipped')
    t.same(fromTexts.heads(), fromBlocks.heads())
    const tip = blocks.at(-1)!.header.hash
    t.same(await fromTexts.getBlockJson(tip), await fromBlocks.getBlockJson(tip))
    t.same(await fromTexts.getStoredHeader(tip), await fromBlocks.getStoredHeader(tip))
  })
}

t.test('calls made one after another are written in call order, each validated ahead of its turn', async (t) => {
  const store = await openStore({ path: t.testdir(), network: 'test-singleton', validationThreads: 2 })
  t.teardown(() => store.close())
  const blocks = line(2000)
  const heights: number[] = []
  store.subscribe((event) => {
    if (event.type === 'inserted') heights.push(event.header.height)
  })
  // Not awaited one by one: each later call's validation starts while the earlier ones are written.
  const counts = await Promise.all([0, 1, 2, 3].map((part) => store.insertManyJson(texts(blocks.slice(part * 500, part * 500 + 500)))))
  t.same(counts, [500, 500, 500, 500])
  t.same(
    heights,
    blocks.map((block) => block.header.height),
    'every block once, parent first',
  )
})

t.test('insertManyJson stops at a text that is not a block, after writing the ones before it', async (t) => {
  const store = await openStore({ path: t.testdir(), network: 'test-singleton', validationThreads: 2 })
  t.teardown(() => store.close())
  const lines = texts(line(400))
  lines[300] = Buffer.from('{"header":{"height":1},"payloadWithOutputs":{}}')
  await t.rejects(store.insertManyJson(lines), { code: 'INVALID_ENCODING', message: /Expected text 301 of the call to be a full block/ })
  t.equal(store.heads().get(0)?.height, 300, 'the 300 blocks before it are written')
})
