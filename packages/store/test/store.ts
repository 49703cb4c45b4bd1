import { readFileSync } from 'node:fs'
import {
  type Block,
  blockToJson,
  blockToJsonText,
  decodeHeader,
  encodeHeader,
  genesisBlock,
  genesisBlocks,
  getNetwork,
  type Header,
  headerToJsonText,
  MAX_U256,
  payloadToJsonText,
} from '@weft/block'
import { branch } from '@weft/traversal'
import type { NetworkName } from '@weft/types'
import { ClassicLevel } from 'classic-level'
import t, { type Test } from 'tap'
import { type ChainStore, openStore, type StoreEvent } from '../src/index.js'
import { blockKey, hashIndexKey, headKey } from '../src/keys.js'
import { makePayload, mineChild, mineLine } from './fixtures/chain-miner.js'

const development = getNetwork('development')

async function open(t: Test, network: NetworkName = 'development', path = t.testdir()): Promise<ChainStore> {
  const store = await openStore({ path, network })
  t.teardown(() => store.close())
  return store
}

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = []
  for await (const item of source) items.push(item)
  return items
}

function recordEvents(store: ChainStore): StoreEvent[] {
  const events: StoreEvent[] = []
  store.subscribe((event) => events.push(event))
  return events
}

const text = (hash: Uint8Array): string => Buffer.from(hash).toString('base64url')
const genesis0 = (): Header => genesisBlock(development, 0).header

t.test('a fresh development store holds the genesis block of each of its 20 chains as the cut', async (t) => {
  const store = await open(t)
  const cut = store.cut()
  t.equal(cut.size, 20)
  for (const block of genesisBlocks(development)) {
    t.same(cut.get(block.header.chainId)?.hash, block.header.hash)
    t.equal(text((await store.getBlockJson(block.header.hash))!), text(Buffer.from(blockToJsonText(block, 'spec'))))
  }
  t.equal(store.network.name, 'development')
})

t.test('a fresh mainnet01 store starts with the real genesis blocks, chains 10-19 at height 852054', async (t) => {
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

t.test('a fresh test-singleton store has one chain', async (t) => {
  const store = await open(t, 'test-singleton')
  t.same([...store.cut().keys()], [0])
})

t.test('an inserted block reads back as the same header, binary, JSON and payload', async (t) => {
  const store = await open(t)
  const block = mineChild(development, genesis0(), { payload: makePayload('read-back', 3) })
  t.same(await store.insert(block), { inserted: true })
  const { header } = block
  t.same(await store.getHeader(header.hash), header)
  t.same(await store.getHeaderBinary(header.hash), encodeHeader(header))
  const stored = await store.getStoredHeader(header.hash)
  t.same(stored?.header, header)
  t.equal(stored?.headerJson.toString(), headerToJsonText(header, 'spec'))
  const json = await store.getBlockJson(header.hash)
  t.equal(json?.toString(), blockToJsonText(block, 'spec'))
  t.same(JSON.parse(json!.toString()), blockToJson(block, 'spec'))
  t.equal((await store.getPayloadJson(header.payloadHash))?.toString(), payloadToJsonText(block.payload))
})

t.test('unknown hashes read as undefined', async (t) => {
  const store = await open(t)
  const unknown = Buffer.alloc(32, 7)
  t.equal(await store.getHeader(unknown), undefined)
  t.equal(await store.getHeaderBinary(unknown), undefined)
  t.equal(await store.getStoredHeader(unknown), undefined)
  t.equal(await store.getBlockJson(unknown), undefined)
  t.equal(await store.getPayloadJson(unknown), undefined)
  t.same(await store.getRefs([unknown]), [undefined])
  t.same(await store.getRefs([]), [])
  t.same(await store.getBlocksJson([]), [])
})

t.test('getBlocksJson answers in request order with undefined for unknown hashes', async (t) => {
  const store = await open(t)
  const [a, b] = mineLine(development, genesis0(), 2, { payload: makePayload('many', 1) })
  await store.insertMany([a!, b!])
  const unknown = Buffer.alloc(32, 1)
  const answers = await store.getBlocksJson([b!.header.hash, unknown, a!.header.hash])
  t.same(
    answers.map((answer) => answer?.toString()),
    [blockToJsonText(b!, 'spec'), undefined, blockToJsonText(a!, 'spec')],
  )
})

t.test('inserting a stored block again is a no-op without events', async (t) => {
  const store = await open(t)
  const block = mineChild(development, genesis0())
  await store.insert(block)
  const events = recordEvents(store)
  t.same(await store.insert(block), { inserted: false })
  t.same(await store.insert(genesisBlock(development, 3)), { inserted: false })
  t.equal(await store.insertMany([block, block]), 0)
  t.same(events, [])
})

t.test('a block whose parent is missing is refused with PARENT_NOT_FOUND and nothing is written', async (t) => {
  const store = await open(t)
  const [parent, child] = mineLine(development, genesis0(), 2)
  const events = recordEvents(store)
  await t.rejects(store.insert(child!), {
    code: 'PARENT_NOT_FOUND',
    name: 'MissingParentError',
    hash: child!.header.hash,
    parent: parent!.header.hash,
  })
  t.equal(await store.getHeader(child!.header.hash), undefined)
  t.same(events, [])
  // A parent that comes later in the same call does not count: blocks are parent-first.
  await t.rejects(store.insertMany([child!, parent!]), { code: 'PARENT_NOT_FOUND' })
  t.equal(await store.getHeader(parent!.header.hash), undefined)
})

t.test('an invalid block is refused with INVALID_BLOCK listing its violations', async (t) => {
  const store = await open(t)
  const block = mineChild(development, genesis0())
  const badWeight: Block = { header: { ...block.header, weight: block.header.weight + 1n }, payload: block.payload }
  const error = await store.insert(badWeight).catch((e: unknown) => e)
  t.match(error, { code: 'INVALID_BLOCK', name: 'InvalidBlockError', hash: block.header.hash })
  const codes = (error as { violations: Array<{ code: string }> }).violations.map((v) => v.code)
  t.ok(codes.includes('INVALID_WEIGHT'), 'weight is reported')
  t.ok(codes.includes('INVALID_BLOCK_HASH'), 'the hash no longer matches either')
  t.equal(await store.getHeader(block.header.hash), undefined)
  const badPayload: Block = { header: block.header, payload: makePayload('other') }
  await t.rejects(store.insert(badPayload), { code: 'INVALID_BLOCK', violations: [{ code: 'INVALID_PAYLOAD_HASH' }] })
})

t.test('a block at genesis height without a stored parent must be the network genesis block', async (t) => {
  const store = await open(t)
  const fake = mineChild(development, { ...genesis0(), height: -1, hash: Buffer.alloc(32, 9) })
  t.equal(fake.header.height, 0)
  await t.rejects(store.insert(fake), { code: 'INVALID_BLOCK', violations: [{ code: 'INVALID_GENESIS' }] })
  const wrongChain = { header: { ...fake.header, chainId: 42 }, payload: fake.payload }
  await t.rejects(store.insert(wrongChain), { code: 'PARENT_NOT_FOUND' })
})

t.test('insertMany writes a parent-first line across batch boundaries and counts new blocks', async (t) => {
  const store = await open(t)
  const line = mineLine(development, genesis0(), 600)
  t.equal(await store.insertMany(line.slice(0, 10)), 10)
  t.equal(await store.insertMany(line), 590)
  t.equal(store.cut().get(0)?.height, 600)
  const heights = (await collect(store.range({ chain: 0 }))).map((item) => item.height)
  t.same(
    heights,
    Array.from({ length: 601 }, (_, i) => i),
  )
})

t.test('insertMany stops at the first refused block after writing and announcing the ones before it', async (t) => {
  const store = await open(t)
  const line = mineLine(development, genesis0(), 5)
  const broken: Block = { header: { ...line[2]!.header, height: 7 }, payload: line[2]!.payload }
  const events = recordEvents(store)
  await t.rejects(store.insertMany([line[0]!, line[1]!, broken, line[3]!]), { code: 'INVALID_BLOCK' })
  t.ok(await store.getHeader(line[1]!.header.hash))
  t.equal(await store.getHeader(line[3]!.header.hash), undefined)
  t.same(
    events.filter((e) => e.type === 'inserted').map((e) => text(e.header.hash)),
    [line[0]!, line[1]!].map((b) => text(b.header.hash)),
  )
  t.equal(store.cut().get(0)?.height, 2)
})

t.test('a payload shared by many blocks is stored once and served for each', async (t) => {
  const path = t.testdir()
  const store = await openStore({ path, network: 'development' })
  const payload = makePayload('shared-by-all', 2)
  const line = mineLine(development, genesis0(), 3, { payload })
  await store.insertMany(line.slice(0, 1))
  await store.insertMany(line.slice(1))
  const blocks = await store.getBlocksJson(line.map((b) => b.header.hash))
  t.same(
    blocks.map((b) => b?.toString()),
    line.map((b) => blockToJsonText(b, 'spec')),
  )
  await store.close()
  const db = new ClassicLevel<Buffer, Buffer>(path, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  const payloadKeys = await db.keys({ gte: Buffer.from('p'), lt: Buffer.from('q') }).all()
  await db.close()
  // Every genesis block shares one payload; the line adds exactly one more.
  t.equal(payloadKeys.length, 2)
})

t.test('range is ascending by height then raw hash, orphans included, within min and max height', async (t) => {
  const store = await open(t)
  const g = genesis0()
  const main = mineLine(development, g, 4)
  const fork = mineLine(development, g, 3, { payload: makePayload('fork') })
  await store.insertMany([...main, ...fork])
  await store.insertMany(mineLine(development, genesisBlock(development, 1).header, 2))
  const all = await collect(store.range({ chain: 0 }))
  const expected = [g, ...main.map((b) => b.header), ...fork.map((b) => b.header)].sort(
    (a, b) => a.height - b.height || Buffer.compare(a.hash, b.hash),
  )
  t.same(
    all.map((item) => text(item.hash)),
    expected.map((h) => text(h.hash)),
  )
  t.same(
    all.map((item) => item.height),
    expected.map((h) => h.height),
  )
  for (const item of all) {
    const header = decodeHeader(item.headerBinary)
    t.equal(item.headerJson.toString(), headerToJsonText(header, 'spec'))
    t.same(item.payloadHash, header.payloadHash)
  }
  const bounded = await collect(store.range({ chain: 0, minheight: 2, maxheight: 3 }))
  t.same(
    bounded.map((item) => text(item.hash)),
    expected.filter((h) => h.height >= 2 && h.height <= 3).map((h) => text(h.hash)),
  )
  t.same(await collect(store.range({ chain: 0, minheight: 3, maxheight: 2 })), [])
  t.same(await collect(store.range({ chain: 5, minheight: 1 })), [])
})

t.test('range starts at or just after a stored block, still bounded by min and max height', async (t) => {
  const store = await open(t)
  const line = mineLine(development, genesis0(), 6)
  await store.insertMany(line)
  const hashesFrom = async (query: Parameters<ChainStore['range']>[0]) => (await collect(store.range(query))).map((item) => item.height)
  const third = line[2]!.header.hash
  t.same(await hashesFrom({ chain: 0, start: { hash: third, inclusive: true } }), [3, 4, 5, 6])
  t.same(await hashesFrom({ chain: 0, start: { hash: third, inclusive: false } }), [4, 5, 6])
  t.same(await hashesFrom({ chain: 0, start: { hash: third, inclusive: false }, maxheight: 5 }), [4, 5])
  t.same(await hashesFrom({ chain: 0, start: { hash: third, inclusive: true }, minheight: 5 }), [5, 6])
  t.same(await hashesFrom({ chain: 0, start: { hash: line[4]!.header.hash, inclusive: false }, minheight: 2 }), [6])
})

t.test('a range start that is unknown or on another chain is CURSOR_NOT_FOUND', async (t) => {
  const store = await open(t)
  const unknown = Buffer.alloc(32, 3)
  await t.rejects(collect(store.range({ chain: 0, start: { hash: unknown, inclusive: true } })), {
    code: 'CURSOR_NOT_FOUND',
    name: 'CursorNotFoundError',
    hash: unknown,
  })
  const otherChain = genesisBlock(development, 1).header.hash
  await t.rejects(collect(store.range({ chain: 0, start: { hash: otherChain, inclusive: false } })), { code: 'CURSOR_NOT_FOUND' })
})

t.test('leaving a range early releases its iterator so the store still closes', async (t) => {
  const store = await openStore({ path: t.testdir(), network: 'development' })
  await store.insertMany(mineLine(development, genesis0(), 10))
  let seen = 0
  for await (const item of store.range({ chain: 0 })) {
    seen += item.height >= 0 ? 1 : 0
    if (seen === 3) break
  }
  t.equal(seen, 3)
  await store.close()
})

t.test('readRangeBlocks turns a page of range items into the stored full-block JSON', async (t) => {
  const store = await open(t)
  const line = mineLine(development, genesis0(), 4, { payload: makePayload('page', 2) })
  await store.insertMany(line)
  const items = await collect(store.range({ chain: 0, minheight: 1 }))
  const blocks = await store.readRangeBlocks(items)
  t.same(
    blocks.map((b) => b.toString()),
    line.map((b) => blockToJsonText(b, 'spec')),
  )
  t.same(await store.readRangeBlocks([]), [])
})

t.test('getRefs answers hash, parent, height and chain in request order', async (t) => {
  const store = await open(t)
  const [a] = mineLine(development, genesis0(), 1)
  await store.insert(a!)
  const g = genesisBlock(development, 7).header
  const refs = await store.getRefs([a!.header.hash, Buffer.alloc(32), g.hash])
  t.same(refs, [
    { hash: a!.header.hash, parent: a!.header.parent, height: 1, chainId: 0 },
    undefined,
    { hash: g.hash, parent: g.parent, height: 0, chainId: 7 },
  ])
})

t.test('the traversal library walks a branch through the store', async (t) => {
  const store = await open(t)
  const g = genesis0()
  const main = mineLine(development, g, 5)
  const fork = mineLine(development, main[1]!.header, 2, { payload: makePayload('side') })
  await store.insertMany([...main, ...fork])
  const walked = await collect(branch(store, { chain: 0, upper: [fork[1]!.header.hash], lower: [main[0]!.header.hash] }))
  t.same(
    walked.map((ref) => ref.height),
    [4, 3, 2],
  )
  t.same(
    walked.map((ref) => text(ref.hash)),
    [fork[1]!, fork[0]!, main[1]!].map((b) => text(b.header.hash)),
  )
})

t.test('the cut follows the highest weight and breaks ties by the lowest raw hash', async (t) => {
  const store = await open(t)
  const g = genesis0()
  const light = mineChild(development, g) // difficulty 1
  const heavy = mineChild(development, g, { target: MAX_U256 >> 3n, payload: makePayload('heavy') }) // difficulty 8
  await store.insert(light)
  t.same(store.cut().get(0)?.hash, light.header.hash)
  await store.insert(heavy)
  t.same(store.cut().get(0)?.hash, heavy.header.hash)
  // Two more children of the heavy block with equal weight: the lower raw hash wins whatever the order.
  const [x, y] = [
    mineChild(development, heavy.header, { payload: makePayload('x') }),
    mineChild(development, heavy.header, { payload: makePayload('y') }),
  ]
  const [low, high] = Buffer.compare(x.header.hash, y.header.hash) < 0 ? [x, y] : [y, x]
  await store.insert(high)
  await store.insert(low)
  t.same(store.cut().get(0)?.hash, low.header.hash)
  const before = store.cut()
  await store.insert(mineChild(development, low.header))
  t.not(store.cut(), before, 'a new map is handed out when the cut changes')
  t.equal(before.get(0)?.hash.equals(low.header.hash), true, 'a map handed out earlier does not change')
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

t.test('the change feed announces inserts in order and best-head changes with the blocks that joined', async (t) => {
  const store = await open(t)
  const events = recordEvents(store)
  const g = genesis0()
  const [a, b] = mineLine(development, g, 2)
  await store.insertMany([a!, b!])
  t.same(
    events.map((e) =>
      e.type === 'inserted' ? `inserted ${e.header.height}` : `best ${e.chain} ${e.joined.map((j) => j.header.height).join(',')}`,
    ),
    ['inserted 1', 'best 0 1', 'inserted 2', 'best 0 2'],
  )
  const inserted = events[0]!
  t.ok(inserted.type === 'inserted' && inserted.headerJson.toString() === headerToJsonText(a!.header, 'spec') && inserted.txCount === 0)
})

t.test('a reorg announces the new branch from the fork point, ancestors first; orphan inserts announce no best', async (t) => {
  const store = await open(t)
  const g = genesis0()
  const main = mineLine(development, g, 3)
  await store.insertMany(main)
  const events = recordEvents(store)
  // A side branch from height 1 that stays lighter, then overtakes with a heavy block.
  const side = mineLine(development, main[0]!.header, 2, { payload: makePayload('side', 1) })
  await store.insertMany(side)
  t.same(
    events.map((e) => e.type),
    ['inserted', 'inserted'],
    'a lighter or equal-weight-higher-hash branch is no news for the cut',
  )
  events.length = 0
  const overtaking = mineChild(development, side[1]!.header, { target: MAX_U256 >> 4n })
  await store.insert(overtaking)
  const best = events.find((e) => e.type === 'best')
  t.ok(best?.type === 'best')
  if (best?.type !== 'best') return
  t.same(best.head, overtaking.header)
  t.same(
    best.joined.map((j) => text(j.header.hash)),
    [side[0]!, side[1]!, overtaking].map((b) => text(b.header.hash)),
  )
  t.same(
    best.joined.map((j) => j.txCount),
    [1, 1, 0],
  )
  t.same(
    best.joined.map((j) => j.headerJson.toString()),
    [side[0]!, side[1]!, overtaking].map((b) => headerToJsonText(b.header, 'spec')),
  )
})

t.test('a reorg to a shorter but heavier branch walks back to the fork point', async (t) => {
  const store = await open(t)
  const g = genesis0()
  const long = mineLine(development, g, 4)
  await store.insertMany(long)
  const events = recordEvents(store)
  const heavy = mineChild(development, g, { target: MAX_U256 >> 8n, payload: makePayload('short') })
  await store.insert(heavy)
  const best = events.find((e) => e.type === 'best')
  t.ok(best?.type === 'best' && best.joined.length === 1 && best.joined[0]!.header.hash.equals(heavy.header.hash))
  // Orphans stay readable in ranges and by hash after the cut moved on.
  for (const block of long) t.equal((await store.getBlockJson(block.header.hash))?.toString(), blockToJsonText(block, 'spec'))
  const heights = (await collect(store.range({ chain: 0, minheight: 1 }))).map((i) => i.height)
  t.same(heights, [1, 1, 2, 3, 4])
})

t.test('a reorg whose blocks arrive in one insertMany call is announced per block', async (t) => {
  const store = await open(t)
  const g = genesis0()
  const main = mineLine(development, g, 2)
  await store.insertMany(main)
  const events = recordEvents(store)
  const side = mineLine(development, g, 3, { payload: makePayload('one-call') })
  await store.insertMany(side)
  const bests = events.flatMap((e) => (e.type === 'best' ? [e.joined.map((j) => j.header.height)] : []))
  t.same(bests, [[1, 2, 3]], 'the third side block overtakes, and the whole side branch joins')
})

t.test('a throwing listener does not break inserts and the other listeners still hear', async (t) => {
  const store = await open(t)
  const warnings: Error[] = []
  const onWarning = (warning: Error) => warnings.push(warning)
  process.on('warning', onWarning)
  t.teardown(() => {
    process.off('warning', onWarning)
  })
  store.subscribe(() => {
    throw new Error('listener bug')
  })
  const heard: string[] = []
  store.subscribe((e) => heard.push(e.type))
  t.same(await store.insert(mineChild(development, genesis0())), { inserted: true })
  t.same(heard, ['inserted', 'best'])
  await new Promise((resolve) => setImmediate(resolve))
  t.match(warnings[0], { name: 'ListenerError', code: 'LISTENER_FAILED', cause: { message: 'listener bug' } })
})

t.test('an unsubscribed listener hears nothing more, and subscribing twice gives two subscriptions', async (t) => {
  const store = await open(t)
  const heard: string[] = []
  const listener = (e: StoreEvent) => heard.push(e.type)
  const first = store.subscribe(listener)
  const second = store.subscribe(listener)
  const [a, b] = mineLine(development, genesis0(), 2)
  await store.insert(a!)
  t.equal(heard.length, 4)
  first()
  await store.insert(b!)
  t.equal(heard.length, 6)
  second()
  second()
  await store.insert(mineChild(development, b!.header))
  t.equal(heard.length, 6)
})

t.test('concurrent inserts are serialised and all succeed in call order', async (t) => {
  const store = await open(t)
  const line = mineLine(development, genesis0(), 30)
  const events = recordEvents(store)
  const results = await Promise.all(line.map((block) => store.insert(block)))
  t.ok(results.every((r) => r.inserted))
  t.same(
    events.filter((e) => e.type === 'inserted').map((e) => e.header.height),
    line.map((b) => b.header.height),
  )
})

t.test('close waits for queued inserts, and every later call throws STORE_CLOSED', async (t) => {
  const store = await openStore({ path: t.testdir(), network: 'development' })
  const line = mineLine(development, genesis0(), 3)
  const pending = store.insertMany(line)
  await store.close()
  t.equal(await pending, 3)
  await store.close()
  const hash = line[0]!.header.hash
  t.throws(() => store.subscribe(() => {}), { code: 'STORE_CLOSED', name: 'StoreClosedError' })
  const calls: Array<() => Promise<unknown>> = [
    () => store.insert(line[0]!),
    () => store.insertMany(line),
    () => store.getHeader(hash),
    () => store.getHeaderBinary(hash),
    () => store.getStoredHeader(hash),
    () => store.getBlockJson(hash),
    () => store.getBlocksJson([hash]),
    () => store.getPayloadJson(hash),
    () => store.getRefs([hash]),
    () => store.readRangeBlocks([]),
    () => collect(store.range({ chain: 0 })),
  ]
  for (const call of calls) await t.rejects(call(), { code: 'STORE_CLOSED' })
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
  const db = new ClassicLevel<Buffer, Buffer>(path, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  const g = genesisBlock(development, 3).header
  await db.batch([
    { type: 'del', key: blockKey(3, 0, g.hash) },
    { type: 'del', key: hashIndexKey(g.hash) },
    { type: 'del', key: headKey(3) },
  ])
  await db.close()
  const store = await open(t, 'development', path)
  t.same(await store.getHeader(g.hash), g)
  t.same(store.cut().get(3), g)
})

t.test('records the layout promises but that are missing are reported as CORRUPT_STORE', async (t) => {
  const path = t.testdir()
  const store = await openStore({ path, network: 'development' })
  const [a, b] = mineLine(development, genesis0(), 2, { payload: makePayload('corrupt') })
  await store.insertMany([a!, b!])
  await store.close()
  const db = new ClassicLevel<Buffer, Buffer>(path, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  await db.del(blockKey(0, 1, a!.header.hash))
  await db.del(Buffer.concat([Buffer.from('p'), b!.header.payloadHash]))
  await db.close()
  const damaged = await open(t, 'development', path)
  await t.rejects(damaged.getHeader(a!.header.hash), { code: 'CORRUPT_STORE', name: 'CorruptStoreError' })
  await t.rejects(damaged.getBlocksJson([a!.header.hash]), { code: 'CORRUPT_STORE' })
  await t.rejects(damaged.getBlockJson(b!.header.hash), { code: 'CORRUPT_STORE' })
  await t.rejects(damaged.insert(mineChild(development, a!.header)), { code: 'CORRUPT_STORE' })
  // A reorg walk that meets the hole is refused too, before anything is written.
  const heavy = mineChild(development, genesis0(), { target: MAX_U256 >> 6n, payload: makePayload('walk') })
  await t.rejects(damaged.insert(heavy), { code: 'CORRUPT_STORE' })
  t.equal(await damaged.getHeader(heavy.header.hash), undefined)
})

t.test('a best head without its block record makes open fail with CORRUPT_STORE', async (t) => {
  const path = t.testdir()
  const store = await openStore({ path, network: 'development' })
  const [a] = mineLine(development, genesis0(), 1)
  await store.insert(a!)
  await store.close()
  const db = new ClassicLevel<Buffer, Buffer>(path, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  await db.del(hashIndexKey(a!.header.hash))
  await db.close()
  await t.rejects(openStore({ path, network: 'development' }), { code: 'CORRUPT_STORE' })
})

t.test('a reorg walk that meets an ancestor missing from the hash index is CORRUPT_STORE and writes nothing', async (t) => {
  const path = t.testdir()
  const store = await openStore({ path, network: 'development' })
  const [a, b] = mineLine(development, genesis0(), 2)
  await store.insertMany([a!, b!])
  await store.close()
  const db = new ClassicLevel<Buffer, Buffer>(path, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  await db.del(hashIndexKey(a!.header.hash))
  await db.close()
  const damaged = await open(t, 'development', path)
  const heavy = mineChild(development, genesis0(), { target: MAX_U256 >> 6n, payload: makePayload('walk') })
  await t.rejects(damaged.insert(heavy), { code: 'CORRUPT_STORE', message: /ancestor/ })
  t.equal(await damaged.getHeader(heavy.header.hash), undefined)
  t.same(damaged.cut().get(0), b!.header)
})

t.test('concurrent inserts are written together, and a refused block refuses only its own caller', async (t) => {
  const store = await open(t)
  const line = mineLine(development, genesis0(), 3)
  const bad: Block = { header: { ...line[1]!.header, weight: line[1]!.header.weight + 1n }, payload: line[1]!.payload }
  const events = recordEvents(store)
  const results = await Promise.allSettled([
    store.insert(line[0]!),
    store.insert(bad),
    store.insert(line[1]!),
    store.insert(line[1]!),
    store.insert(line[2]!),
  ])
  t.match(results, [
    { status: 'fulfilled', value: { inserted: true } },
    { status: 'rejected', reason: { code: 'INVALID_BLOCK' } },
    { status: 'fulfilled', value: { inserted: true } },
    { status: 'fulfilled', value: { inserted: false } },
    { status: 'fulfilled', value: { inserted: true } },
  ])
  t.same(
    events.filter((e) => e.type === 'inserted').map((e) => e.header.height),
    [1, 2, 3],
  )
  t.equal(store.cut().get(0)?.height, 3)
})

t.test('an insert called after an insertMany that is still queued is written after it', async (t) => {
  const store = await open(t)
  const line = mineLine(development, genesis0(), 4)
  const results = await Promise.all([store.insert(line[0]!), store.insertMany([line[1]!, line[2]!]), store.insert(line[3]!)])
  t.same(results, [{ inserted: true }, 2, { inserted: true }])
  t.equal(store.cut().get(0)?.height, 4)
})

t.test('insertMany across batches writes a payload shared with an earlier batch once and skips repeated blocks', async (t) => {
  const path = t.testdir()
  const store = await openStore({ path, network: 'development' })
  const line = mineLine(development, genesis0(), 300, { payload: makePayload('shared-across-batches', 1) })
  // Index 260 is in the second batch of 256, validated while the first is still being written.
  t.equal(await store.insertMany([...line.slice(0, 260), line[10]!, ...line.slice(260)]), 300)
  t.equal(store.cut().get(0)?.height, 300)
  await store.close()
  const db = new ClassicLevel<Buffer, Buffer>(path, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  const payloadKeys = await db.keys({ gte: Buffer.from('p'), lt: Buffer.from('q') }).all()
  await db.close()
  t.equal(payloadKeys.length, 2, 'the genesis payload and the shared one')
})

t.test('a corrupt record met by a later batch of insertMany refuses the call after the earlier batches are written', async (t) => {
  const path = t.testdir()
  const store = await openStore({ path, network: 'development' })
  const [a, b] = mineLine(development, genesis0(), 2, { payload: makePayload('corrupt-later') })
  await store.insertMany([a!, b!])
  await store.close()
  const db = new ClassicLevel<Buffer, Buffer>(path, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  await db.del(blockKey(0, 1, a!.header.hash))
  await db.close()
  const damaged = await open(t, 'development', path)
  const other = mineLine(development, genesisBlock(development, 1).header, 256)
  await t.rejects(damaged.insertMany([...other, mineChild(development, a!.header)]), { code: 'CORRUPT_STORE' })
  t.ok(await damaged.getHeader(other[255]!.header.hash), 'the first batch was written')
  t.equal(damaged.cut().get(1)?.height, 256)
})
