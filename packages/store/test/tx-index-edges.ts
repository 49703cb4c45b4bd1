// The transaction index at its edges: several copies of one transaction, entries their block does
// not confirm, chains outside the cut, blocks above an adopted cut, odd outputs, a missing record.
import { type Block, genesisBlock, getNetwork, withPayloadHashes } from '@weft/block'
import { indexOperations } from '@weft/index'
import t, { type Test } from 'tap'
import { openStore } from '../src/index.js'
import { blockKey } from '../src/keys.js'
import { expectedEvents, expectedPlace, expectedTransfers, placeOf } from './fixtures/index-expectations.js'
import { devnetPayloads, onChain, payloadBraid, requestKeysOf } from './fixtures/indexed-blocks.js'
import { editFolder } from './fixtures/level.js'

const network = getNetwork('development')
const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url')
const base64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url')

async function storeIn(t: Test, path = t.testdir()) {
  const store = await openStore({ path, network: 'development' })
  t.teardown(() => store.close())
  return store
}

t.test('copies of one transaction come canonical first, then by chain, then newest first', async (t) => {
  const store = await storeIn(t)
  const payload = devnetPayloads[0]!
  // Chain 0 carries the payload at heights 1 and 3, chain 1 at height 1.
  const carried = [[payload, devnetPayloads[2]!, payload], [payload]]
  const braid = payloadBraid(network, store.cut(), 3, (chain, i) => carried[chain]?.[i])
  await store.insertMany(braid)
  const [requestKey] = requestKeysOf(onChain(braid, 0)[0]!)
  const copies = (await store.index.transaction(requestKey!)).copies
  t.same(
    copies.map((copy) => [copy.block.chain, copy.block.height, copy.block.canonical]),
    [
      [0, 3, true],
      [0, 1, true],
      [1, 1, true],
    ],
  )
  const all = await store.index.blocks({ limit: 1000 })
  t.ok(all.items.length >= 3)
  t.equal((await store.index.blocks({ limit: all.items.length })).next, undefined, 'a page that ends with the range has no next')
})

t.test('an entry its block does not confirm (another block’s entries under its name) is left out of every answer', async (t) => {
  const path = t.testdir()
  const first = await openStore({ path, network: 'development' })
  // Payload 9 holds a pact's later step, transfers and events; chain 0 carries it at height 1.
  const braid = payloadBraid(network, first.cut(), 1, (chain) => (chain === 0 ? devnetPayloads[9] : undefined))
  await first.insertMany(braid)
  await first.close()
  const [carrier, other] = [onChain(braid, 0)[0]!, onChain(braid, 1)[0]!]
  // The carrier's entries written again under chain 1's block, which holds no transaction.
  const { chainId: chain, height, hash } = other.header
  const forged = indexOperations({ chain, height, hash, payload: carrier.payload })
  await editFolder(path, (db) => db.batch(forged.map(({ key, value }) => ({ type: 'put' as const, key, value }))))
  const store = await storeIn(t, path)
  const transaction = requestKeysOf(carrier).at(-1)!
  t.same(
    (await store.index.transaction(transaction)).copies.map((copy) => copy.block.hash),
    [text(carrier.header.hash)],
  )
  const pactId = (
    JSON.parse(Buffer.from(carrier.payload.transactions.at(-1)![1], 'base64url').toString()) as { continuation: { pactId: string } }
  ).continuation.pactId
  t.same(
    (await store.index.pactSteps(pactId)).copies.map((copy) => copy.requestKey),
    [transaction],
  )
  const events = await store.index.events({ module: 'coin', name: 'TRANSFER' })
  t.same(
    events.items.map(placeOf),
    expectedEvents([carrier], (event) => event.module === 'coin' && event.name === 'TRANSFER').map(expectedPlace),
  )
  const receiver = (JSON.parse(events.items[0]!.params) as string[])[1]!
  const transfers = expectedTransfers([carrier], receiver)
  t.ok(transfers.length > 0)
  t.same((await store.index.transfers({ account: receiver })).items.map(placeOf), transfers.map(expectedPlace))
  t.same(
    (await store.index.blocks()).items.map((item) => item.block.hash),
    [text(carrier.header.hash)],
    'the block entry whose count the block does not hold is left out',
  )
})

t.test('a chain outside the cut has no winning branch: its copies are orphaned, their depth counted from its best block', async (t) => {
  const store = await openStore({ path: t.testdir(), network: 'recap-development' })
  t.teardown(() => store.close())
  const genesis = genesisBlock(getNetwork('recap-development'), 10)
  t.equal(store.cut().has(10), false, 'chain 10 joins the cut at height 60')
  const copies = await store.index.blockTransactions(genesis.header.hash)
  t.equal(copies?.length, genesis.payload.transactions.length)
  t.ok(copies!.length > 0)
  t.ok(copies!.every((copy) => copy.block.canonical === false && copy.block.depth === 0 && copy.block.height === 60))
  const inCut = await store.index.blockTransactions(genesisBlock(getNetwork('recap-development'), 0).header.hash)
  t.ok(inCut!.every((copy) => copy.block.canonical && copy.block.depth === 0))
})

t.test('a block stored above an adopted cut is not canonical yet, its depth negative', async (t) => {
  const store = await openStore({ path: t.testdir(), network: 'development', cutPolicy: 'adopted' })
  t.teardown(() => store.close())
  const braid = payloadBraid(network, store.cut(), 2, (chain, i) => (chain === 0 ? devnetPayloads[i] : undefined))
  await store.insertMany(braid)
  const [requestKey] = requestKeysOf(onChain(braid, 0)[1]!)
  t.same(
    (await store.index.transaction(requestKey!)).copies.map((copy) => [copy.block.height, copy.block.canonical, copy.block.depth]),
    [[2, false, -2]],
  )
  await store.adoptCut(new Map([...store.heads()].map(([chain, head]) => [chain, head.hash])))
  t.same(
    (await store.index.transaction(requestKey!)).copies.map((copy) => [copy.block.height, copy.block.canonical, copy.block.depth]),
    [[2, true, 0]],
    'canonical once a cut above it is adopted',
  )
})

// Hand-made outputs: a module of 1,001 event names (one without a moduleHash), a burn without its
// TRANSFER_XCHAIN, and one whose TRANSFER_XCHAIN names its target chain as a number.
function oddPayload() {
  const key = (n: number): string => text(Buffer.alloc(32, n))
  const event = (module: string, name: string, params: unknown[], moduleHash?: string) => ({
    name,
    params,
    module: { namespace: null, name: module },
    ...(moduleHash === undefined ? {} : { moduleHash }),
  })
  const names = Array.from({ length: 1001 }, (_, i) => event('many', `E${i}`, [i], i === 0 ? undefined : 'hash'))
  const output = (reqKey: string, events: unknown[]) => ({
    reqKey,
    result: { status: 'success' },
    continuation: { pactId: reqKey },
    events,
  })
  return withPayloadHashes({
    minerData: base64({ account: 'miner' }),
    coinbase: base64({ reqKey: key(1), events: names }),
    transactions: [
      [base64({ cmd: 'burn a' }), base64(output(key(2), [event('coin', 'TRANSFER', ['a', '', 1.5], 'h')]))],
      [
        base64({ cmd: 'burn b' }),
        base64(output(key(3), [event('coin', 'TRANSFER', ['b', '', 2], 'h'), event('coin', 'TRANSFER_XCHAIN', ['b', 'c', 2, 7], 'h')])),
      ],
    ],
  })
}

t.test('odd outputs: a module of too many names, an event without a moduleHash, cross-chain legs without their other end', async (t) => {
  const store = await storeIn(t)
  const payload = oddPayload()
  const braid: Block[] = payloadBraid(network, store.cut(), 1, (chain) => (chain === 0 ? payload : undefined))
  await store.insertMany(braid)
  await t.rejects(store.index.events({ module: 'many' }), {
    code: 'INVALID_INDEX_QUERY',
    message: /at most 1000 event names, received many/,
  })
  t.same(
    (await store.index.events({ module: 'many', name: 'E0' })).items.map((e) => [e.position, e.params, e.moduleHash]),
    [[-1, '[0]', null]],
  )
  t.same(
    (await store.index.events({ module: 'many', name: 'E7' })).items.map((e) => e.moduleHash),
    ['hash'],
  )
  for (const account of ['a', 'b']) {
    const [burn] = (await store.index.transfers({ account })).items
    t.match(burn, { sender: account, receiver: '', crossChain: null, sent: true, received: false }, account)
    t.equal(burn!.pactId, burn!.requestKey)
  }
})

t.test('a block whose record is gone (a damaged store) is not found by its hash', async (t) => {
  const path = t.testdir()
  const first = await openStore({ path, network: 'development' })
  const braid = payloadBraid(network, first.cut(), 2, (chain, i) => (chain === 0 ? devnetPayloads[i] : undefined))
  await first.insertMany(braid)
  await first.close()
  const gone = onChain(braid, 0)[0]!.header
  await editFolder(path, (db) => db.del(blockKey(gone.chainId, gone.height, gone.hash)))
  const store = await storeIn(t, path)
  t.equal(await store.index.blockTransactions(gone.hash), undefined)
})
