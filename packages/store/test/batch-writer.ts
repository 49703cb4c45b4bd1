import { join } from 'node:path'
import { genesisBlock, genesisBlocks, getNetwork } from '@weft/block'
import { ClassicLevel } from 'classic-level'
import t from 'tap'
import { openStore } from '../src/index.js'
import { blockKey } from '../src/keys.js'
import { makePayload, mineBraid, mineLine, mineValidChild } from '../src/suite/chain-miner.js'
import { editFolder, open, payloadCount } from './fixtures/level.js'

const singleton = getNetwork('test-singleton')
const genesis0 = () => genesisBlock(singleton, 0).header

t.test('a payload shared by many blocks is indexed once, each block holding its copy', async (t) => {
  const path = t.testdir()
  const store = await openStore({ path, network: 'test-singleton' })
  const line = mineLine(singleton, genesis0(), 3, { payload: makePayload('shared-by-all', 2) })
  await store.insertMany(line.slice(0, 1))
  await store.insertMany(line.slice(1))
  await store.close()
  // Every genesis block shares one payload; the line adds exactly one more to the payload index.
  t.equal(await payloadCount(path), 2)
  const reopened = await open(t, 'test-singleton', path)
  for (const block of line)
    t.match((await reopened.getBlockJson(block.header.hash))?.toString(), /"payloadWithOutputs":\{"transactions":\[\[/)
})

t.test('insertMany across batches indexes a payload shared with an earlier batch once and skips repeated blocks', async (t) => {
  const path = t.testdir()
  const store = await openStore({ path, network: 'test-singleton' })
  const line = mineLine(singleton, genesis0(), 300, { payload: makePayload('shared-across-batches', 1) })
  // Index 260 is in the second batch of 256, validated while the first is still being written.
  t.equal(await store.insertMany([...line.slice(0, 260), line[10]!, ...line.slice(260)]), 300)
  t.equal(store.cut().get(0)?.height, 300)
  await store.close()
  t.equal(await payloadCount(path), 2, 'the genesis payload and the shared one')
})

t.test('a corrupt record met by a later batch of insertMany refuses the call after the earlier batches are written', async (t) => {
  const path = t.testdir()
  const store = await openStore({ path, network: 'test-singleton' })
  const [a, b] = mineLine(singleton, genesis0(), 2, { payload: makePayload('corrupt-later') })
  await store.insertMany([a!, b!])
  await store.close()
  await editFolder(path, (db) => db.del(blockKey(0, 1, a!.header.hash)))
  const damaged = await open(t, 'test-singleton', path)
  // A first batch of 256 blocks on b, then a sibling of b, whose parent's record is gone.
  const other = mineLine(singleton, b!.header, 256)
  await t.rejects(damaged.insertMany([...other, mineValidChild(singleton, a!.header)]), { code: 'CORRUPT_STORE' })
  t.ok(await damaged.getHeader(other[255]!.header.hash), 'the first batch was written')
  t.equal(damaged.cut().get(0)?.height, 258)
})

t.test('a batch write that fails while the next batch is prepared refuses the call, and nothing goes unhandled', async (t) => {
  const folder = t.testdir()
  const store = await openStore({ path: join(folder, 'store'), network: 'test-singleton', validationThreads: 0 })
  t.teardown(() => store.close())
  // A disk that fails the first atomic write: classic-level's own batch
  // class, shared by every database of the process, fails once (the only way to fail a real write).
  const probe = new ClassicLevel(join(folder, 'probe'))
  await probe.open()
  const chained = Object.getPrototypeOf(probe.batch()) as { _write(options: unknown): Promise<void> }
  await probe.close()
  const write = chained._write
  let writes = 0
  chained._write = async function (this: unknown, options: unknown) {
    if (writes++ > 0) return write.call(this, options)
    throw new Error('the disk failed')
  }
  t.teardown(() => {
    chained._write = write
  })
  const unhandled: unknown[] = []
  const listener = (reason: unknown): void => void unhandled.push(reason)
  process.on('unhandledRejection', listener)
  t.teardown(() => process.off('unhandledRejection', listener))
  await t.rejects(store.insertMany(mineLine(singleton, genesis0(), 600)), { message: 'the disk failed' })
  await new Promise((resolve) => setTimeout(resolve, 50))
  t.same(unhandled, [], 'no rejection went unhandled')
  t.equal(store.cut().get(0)?.height, 0, 'nothing of the failed batch counts as written')
})

t.test('a malformed block among concurrent inserts refuses its own caller only', async (t) => {
  const store = await openStore({ path: t.testdir(), network: 'test-singleton' })
  t.teardown(() => store.close())
  const good = mineValidChild(singleton, genesis0())
  const other = mineValidChild(singleton, genesis0(), { payload: makePayload('other') })
  const malformed = { ...other, header: { ...other.header, hash: Buffer.alloc(40) } }
  const [stored, refused] = await Promise.allSettled([store.insert(good), store.insert(malformed)])
  t.same(stored, { status: 'fulfilled', value: { inserted: true } })
  t.match(refused, { status: 'rejected', reason: { code: 'INVALID_ENCODING' } })
  t.ok(await store.getHeader(good.header.hash), 'the good block is stored')
})

t.test("a block's adjacent parents are read from disk when memory holds them no more, and judged as full headers", async (t) => {
  const path = t.testdir()
  const development = getNetwork('development')
  const tips = new Map(genesisBlocks(development).map((block) => [block.header.chainId, block.header]))
  const { blocks } = mineBraid(development, tips, 3)
  const last = blocks.find((block) => block.header.chainId === 0 && block.header.height === 3)!
  const store = await openStore({ path, network: 'development' })
  await store.insertMany(blocks.filter((block) => block !== last))
  await store.close()
  // Reopened, memory holds the heads only: chain 0's neighbours are at 3, their blocks at 2 on disk.
  const reopened = await openStore({ path, network: 'development' })
  t.teardown(() => reopened.close())
  t.same(await reopened.insert(last), { inserted: true })
  t.equal(reopened.heads().get(0)?.height, 3)
})
