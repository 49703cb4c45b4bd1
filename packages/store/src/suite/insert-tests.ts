import assert from 'node:assert/strict'
import {
  type Block,
  blockToJson,
  blockToJsonText,
  computeBlockHash,
  encodeHeader,
  genesisBlock,
  genesisBlocks,
  getNetwork,
  headerToJsonText,
  payloadToJsonText,
} from '@weft/block'
import type { RegisterTest } from '@weft/traversal/suite'
import { makePayload, mineLine, mineValidChild } from './chain-miner.js'
import { type ChainStoreFactory, collect, recordEvents, rejection, text, violationCodes, withStore } from './context.js'

const development = getNetwork('development')
const singleton = getNetwork('test-singleton')
const genesis0 = () => genesisBlock(singleton, 0).header

/** Fresh stores, inserts and their validation, idempotence, and reads of what was inserted. */
export function insertTests(test: RegisterTest, open: ChainStoreFactory): void {
  test('a fresh store holds the genesis block of each chain of its network as the cut', () =>
    withStore(
      open,
      async (store) => {
        assert.equal(store.network.name, 'development')
        assert.equal(store.cut().size, 20)
        for (const block of genesisBlocks(development)) {
          assert.deepEqual(store.cut().get(block.header.chainId)?.hash, block.header.hash)
          assert.equal((await store.getBlockJson(block.header.hash))?.toString(), blockToJsonText(block, 'spec'))
        }
      },
      'development',
    ))

  test('a fresh mainnet01 store starts at the real genesis blocks, chains 10-19 at height 852054; test-singleton has one chain', async () => {
    await withStore(
      open,
      async (store) => {
        assert.equal(store.heads().size, 20)
        for (const block of genesisBlocks(getNetwork('mainnet01'))) assert.deepEqual(store.heads().get(block.header.chainId), block.header)
        assert.equal(store.heads().get(10)?.height, 852054)
        assert.equal(store.cut().size, 10, 'chains 10-19 join the cut at the transition')
      },
      'mainnet01',
    )
    await withStore(open, async (store) => assert.deepEqual([...store.cut().keys()], [0]), 'test-singleton')
  })

  test('an inserted block reads back as the same header, binary, JSON and payload', () =>
    withStore(open, async (store) => {
      const block = mineValidChild(singleton, genesis0(), { payload: makePayload('read-back', 3) })
      assert.deepEqual(await store.insert(block), { inserted: true })
      const { header } = block
      assert.deepEqual(await store.getHeader(header.hash), header)
      assert.deepEqual(await store.getHeaderBinary(header.hash), encodeHeader(header))
      const stored = await store.getStoredHeader(header.hash)
      assert.deepEqual(stored?.header, header)
      assert.equal(stored?.headerJson.toString(), headerToJsonText(header, 'spec'))
      const json = await store.getBlockJson(header.hash)
      assert.equal(json?.toString(), blockToJsonText(block, 'spec'))
      assert.deepEqual(JSON.parse(json!.toString()), blockToJson(block, 'spec'))
      assert.equal((await store.getPayloadJson(header.payloadHash))?.toString(), payloadToJsonText(block.payload))
    }))

  test('unknown hashes read as undefined, and empty batches as empty', () =>
    withStore(open, async (store) => {
      const unknown = Buffer.alloc(32, 7)
      assert.equal(await store.getHeader(unknown), undefined)
      assert.equal(await store.getHeaderBinary(unknown), undefined)
      assert.equal(await store.getStoredHeader(unknown), undefined)
      assert.equal(await store.getBlockJson(unknown), undefined)
      assert.equal(await store.getPayloadJson(unknown), undefined)
      assert.deepEqual(await store.getRefs([unknown]), [undefined])
      assert.equal(await store.ancestorAt(unknown, 0), undefined)
      assert.deepEqual(await store.getRefs([]), [])
      assert.deepEqual(await store.getBlocksJson([]), [])
    }))

  test('getBlocksJson answers in request order with undefined for unknown hashes', () =>
    withStore(open, async (store) => {
      const [a, b] = mineLine(singleton, genesis0(), 2, { payload: makePayload('many', 1) })
      await store.insertMany([a!, b!])
      const answers = await store.getBlocksJson([b!.header.hash, Buffer.alloc(32, 1), a!.header.hash])
      assert.deepEqual(
        answers.map((answer) => answer?.toString()),
        [blockToJsonText(b!, 'spec'), undefined, blockToJsonText(a!, 'spec')],
      )
    }))

  test('inserting a stored block again is a no-op without events', () =>
    withStore(open, async (store) => {
      const block = mineValidChild(singleton, genesis0())
      await store.insert(block)
      const events = recordEvents(store)
      assert.deepEqual(await store.insert(block), { inserted: false })
      assert.deepEqual(await store.insert(genesisBlock(singleton, 0)), { inserted: false })
      assert.equal(await store.insertMany([block, block]), 0)
      assert.deepEqual(events, [])
    }))

  test('a block or text that names a stored block but is not it is refused with INVALID_BLOCK, the stored one kept', () =>
    withStore(open, async (store) => {
      const block = mineValidChild(singleton, genesis0())
      await store.insert(block)
      const events = recordEvents(store)
      const otherPayload = { header: block.header, payload: makePayload('not-the-stored-one') }
      const refused = await rejection(store.insert(otherPayload))
      assert.equal(refused.code, 'INVALID_BLOCK')
      assert.deepEqual(violationCodes(refused), ['INVALID_PAYLOAD_HASH'])
      const genesis = genesisBlock(singleton, 0)
      const genesisRefused = await rejection(store.insertMany([{ header: genesis.header, payload: makePayload('genesis') }]))
      assert.deepEqual(violationCodes(genesisRefused), ['INVALID_PAYLOAD_HASH'], 'a genesis block too')
      // Its header altered, its hash kept: the text hashes to another block.
      const altered = blockToJsonText(block, 'spec').replace(/"nonce":"(\d)/, (_, digit: string) => `"nonce":"${(Number(digit) + 1) % 10}`)
      assert.deepEqual(violationCodes(await rejection(store.insertManyJson([Buffer.from(altered)]))), ['INVALID_BLOCK_HASH'])
      assert.equal((await store.getBlockJson(block.header.hash))?.toString(), blockToJsonText(block, 'spec'))
      assert.equal((await store.getBlockJson(genesis.header.hash))?.toString(), blockToJsonText(genesis, 'spec'))
      assert.deepEqual(events, [])
    }))

  test('a block whose parent is missing is refused with PARENT_NOT_FOUND and nothing is written', () =>
    withStore(open, async (store) => {
      const [parent, child] = mineLine(singleton, genesis0(), 2)
      const events = recordEvents(store)
      await assert.rejects(store.insert(child!), {
        code: 'PARENT_NOT_FOUND',
        name: 'MissingParentError',
        hash: child!.header.hash,
        parent: parent!.header.hash,
      })
      assert.equal(await store.getHeader(child!.header.hash), undefined)
      assert.deepEqual(events, [])
      // A parent that comes later in the same call does not count: blocks are parent-first.
      await assert.rejects(store.insertMany([child!, parent!]), { code: 'PARENT_NOT_FOUND' })
      assert.equal(await store.getHeader(parent!.header.hash), undefined)
    }))

  test('an invalid block is refused with INVALID_BLOCK listing its violations', () =>
    withStore(open, async (store) => {
      const block = mineValidChild(singleton, genesis0())
      const badWeight: Block = { header: { ...block.header, weight: block.header.weight + 1n }, payload: block.payload }
      const error = await rejection(store.insert(badWeight))
      assert.equal(error.code, 'INVALID_BLOCK')
      assert.equal(error.name, 'InvalidBlockError')
      assert.deepEqual(error.hash, block.header.hash)
      assert.ok(violationCodes(error).includes('INVALID_WEIGHT'), 'weight is reported')
      assert.ok(violationCodes(error).includes('INVALID_BLOCK_HASH'), 'the hash no longer matches either')
      assert.equal(await store.getHeader(block.header.hash), undefined)
      const badPayload = await rejection(store.insert({ header: block.header, payload: makePayload('other') }))
      assert.equal(badPayload.code, 'INVALID_BLOCK')
      assert.deepEqual(violationCodes(badPayload), ['INVALID_PAYLOAD_HASH'])
    }))

  test('a block at genesis height without a stored parent must be the network genesis block', () =>
    withStore(open, async (store) => {
      const genesis = genesisBlock(singleton, 0)
      const fake = { header: { ...genesis.header, nonce: 7n }, payload: genesis.payload }
      fake.header.hash = computeBlockHash(fake.header)
      const error = await rejection(store.insert(fake))
      assert.equal(error.code, 'INVALID_BLOCK')
      assert.deepEqual(violationCodes(error), ['INVALID_GENESIS'])
      // A chain the network does not have has no genesis height: its first block can only miss its parent.
      const onNoChain = { header: { ...fake.header, chainId: 42 }, payload: fake.payload }
      onNoChain.header.hash = computeBlockHash(onNoChain.header)
      await assert.rejects(store.insert(onNoChain), { code: 'PARENT_NOT_FOUND' })
    }))

  test('insertMany writes a long parent-first line and counts new blocks, a block repeated in the call once', () =>
    withStore(open, async (store) => {
      const line = mineLine(singleton, genesis0(), 600)
      assert.equal(await store.insertMany(line.slice(0, 10)), 10)
      assert.equal(await store.insertMany(line), 590)
      assert.equal(store.cut().get(0)?.height, 600)
      const heights = (await collect(store.range({ chain: 0 }))).map((item) => item.height)
      assert.deepEqual(
        heights,
        Array.from({ length: 601 }, (_, i) => i),
      )
      // A block repeated far later in the same call (past the 256 blocks that classic-level writes at once) is skipped.
      const more = mineLine(singleton, line[599]!.header, 300, { payload: makePayload('across-batches', 1) })
      assert.equal(await store.insertMany([...more.slice(0, 260), more[10]!, ...more.slice(260)]), 300)
      assert.equal(store.cut().get(0)?.height, 900)
    }))

  test('insertMany stops at the first refused block after writing and announcing the ones before it', () =>
    withStore(open, async (store) => {
      const line = mineLine(singleton, genesis0(), 5)
      const broken: Block = { header: { ...line[2]!.header, height: 7 }, payload: line[2]!.payload }
      const events = recordEvents(store)
      await assert.rejects(store.insertMany([line[0]!, line[1]!, broken, line[3]!]), { code: 'INVALID_BLOCK' })
      assert.ok(await store.getHeader(line[1]!.header.hash))
      assert.equal(await store.getHeader(line[3]!.header.hash), undefined)
      assert.deepEqual(
        events.filter((e) => e.type === 'inserted').map((e) => text(e.header.hash)),
        [line[0]!, line[1]!].map((b) => text(b.header.hash)),
      )
      assert.equal(store.cut().get(0)?.height, 2)
    }))

  test('insertManyJson writes the blocks before a text that is not a block, then rejects with INVALID_ENCODING', () =>
    withStore(open, async (store) => {
      const texts = mineLine(singleton, genesis0(), 3).map((block) => Buffer.from(blockToJsonText(block, 'spec')))
      texts.splice(2, 0, Buffer.from('{"header":{"height":1},"payloadWithOutputs":{}}'))
      await assert.rejects(store.insertManyJson(texts), { code: 'INVALID_ENCODING' })
      assert.equal(store.cut().get(0)?.height, 2, 'the two blocks before it are written, the one after it is not')
    }))

  test('a payload shared by many blocks is served for each', () =>
    withStore(open, async (store) => {
      const line = mineLine(singleton, genesis0(), 3, { payload: makePayload('shared-by-all', 2) })
      await store.insertMany(line.slice(0, 1))
      await store.insertMany(line.slice(1))
      const blocks = await store.getBlocksJson(line.map((b) => b.header.hash))
      assert.deepEqual(
        blocks.map((b) => b?.toString()),
        line.map((b) => blockToJsonText(b, 'spec')),
      )
    }))
}
