import { type Block, getNetwork } from '@weft/block'
import { encodeCursor, eventRange } from '@weft/index'
import t, { type Test } from 'tap'
import { type ChainStore, type IndexPage, openStore, type PageOptions } from '../src/index.js'
import { expectedEvents, expectedPlace, expectedTransfers, placeOf } from './fixtures/index-expectations.js'
import { devnetPayloads, forkLine, onChain, onThreeChains, payloadBraid } from './fixtures/indexed-blocks.js'

const network = getNetwork('development')

// Twenty heights of every chain, chains 0, 1 and 2 carrying the devnet payloads: events and transfers of every kind, across chains.
async function filledStore(t: Test): Promise<{ store: ChainStore; blocks: Block[] }> {
  const store = await openStore({ path: t.testdir(), network: 'development' })
  t.teardown(() => store.close())
  const blocks = payloadBraid(network, store.cut(), 20, onThreeChains)
  await store.insertMany(blocks)
  return { store, blocks }
}

// Every page of a query, followed by `next` to the end; `between` runs before each next page.
async function allPages<T>(read: (options: PageOptions) => Promise<IndexPage<T>>, options: PageOptions, between?: () => Promise<void>) {
  const items: T[] = []
  const pages: Array<IndexPage<T>> = []
  let next: string | undefined
  do {
    const page = await read({ ...options, ...(next === undefined ? {} : { next }) })
    pages.push(page)
    items.push(...page.items)
    next = page.next
    if (next !== undefined) await between?.()
  } while (next !== undefined)
  return { items, pages }
}

t.test('events of a name come newest first with their exact params, and pages never skip or repeat one as blocks arrive', async (t) => {
  const { store, blocks } = await filledStore(t)
  const expected = expectedEvents(blocks, (event) => event.module === 'coin' && event.name === 'TRANSFER')
  let extra = 0
  const arrive = async () => {
    // A newer height of every chain arrives between every two pages, chain 1's block with transfers: it sorts before the cursor.
    const payload = devnetPayloads[(extra++ * 7) % 60]!
    await store.insertMany(payloadBraid(network, store.cut(), 1, (chain) => (chain === 1 ? payload : undefined)))
  }
  const { items } = await allPages((o) => store.index.events({ module: 'coin', name: 'TRANSFER', ...o }), { limit: 7 }, arrive)
  t.ok(extra > 10, `${extra} blocks arrived while paging`)
  t.same(items.map(placeOf), expected.map(expectedPlace))
  t.same(
    items.map((event) => [event.requestKey, event.module, event.name, event.params]),
    expected.map(({ item }) => [item.requestKey, item.module, item.name, item.params]),
  )
  t.ok(items.every((event) => event.block.canonical && typeof event.moduleHash === 'string'))
  t.ok(
    items.some((event) => event.position === -1),
    'coinbase events are there, at position -1',
  )
})

t.test("a module's events merge its names in the answers' order; bounds and filters keep their part", async (t) => {
  const { store, blocks } = await filledStore(t)
  const coin = expectedEvents(blocks, (event) => event.module === 'coin')
  t.ok(new Set(coin.map(({ item }) => item.name)).size >= 3)
  const { items, pages } = await allPages((o) => store.index.events({ module: 'coin', ...o }), { limit: 13 })
  t.ok(pages.length > 5)
  t.same(items.map(placeOf), coin.map(expectedPlace))
  const bounded = await allPages((o) => store.index.events({ module: 'coin', ...o }), { minheight: 5, maxheight: 9, chain: 2, limit: 4 })
  t.same(
    bounded.items.map(placeOf),
    coin.filter(({ block }) => block.header.chainId === 2 && block.header.height >= 5 && block.header.height <= 9).map(expectedPlace),
  )
  const registry = expectedEvents(blocks, (event) => event.module === 'free.registry')
  t.same((await store.index.events({ module: 'free.registry', limit: 1000 })).items.map(placeOf), registry.map(expectedPlace))
  t.same(await store.index.events({ module: 'nobody' }), { items: [], next: undefined })
  t.same(await store.index.eventNames({ module: 'coin' }), [
    { module: 'coin', name: 'TRANSFER' },
    { module: 'coin', name: 'TRANSFER_XCHAIN' },
    { module: 'coin', name: 'TRANSFER_XCHAIN_RECD' },
  ])
  const names = await store.index.eventNames()
  t.same(
    names.map(({ module, name }) => `${module}.${name}`),
    [
      'coin.TRANSFER',
      'coin.TRANSFER_XCHAIN',
      'coin.TRANSFER_XCHAIN_RECD',
      'pact.X_YIELD',
      'pact.X_RESUME',
      'free.registry.ENTRY_SET',
      'free.weft-token.TRANSFER',
    ],
    'in key order: each text by its length, then its bytes',
  )
  t.same(await store.index.eventNames({ limit: 2 }), names.slice(0, 2))
})

t.test("an account's transfers of a token: exact amounts, its sides, and a cross-chain leg's other end", async (t) => {
  const { store, blocks } = await filledStore(t)
  const burns = expectedEvents(blocks, (event) => event.name === 'TRANSFER_XCHAIN')
  const account = (JSON.parse(burns[0]!.item.params) as string[])[0]!
  const expected = expectedTransfers(blocks, account)
  const { items } = await allPages((o) => store.index.transfers({ account, ...o }), { limit: 3 })
  t.same(items.map(placeOf), expected.map(expectedPlace))
  t.same(
    items.map((transfer) => [transfer.sender, transfer.receiver, transfer.amount, transfer.sent, transfer.received]),
    expected.map(({ item }) => [item.sender, item.receiver, item.amount, item.sender === account, item.receiver === account]),
  )
  const burn = items.find((transfer) => transfer.receiver === '')!
  t.equal(burn.pactId, burn.requestKey, "a burn's pact id is its own request key")
  const [, receiver, , chain] = JSON.parse(burns[0]!.item.params) as string[]
  t.same(burn.crossChain, { chain, account: receiver })
  t.ok(items.filter((transfer) => transfer.pactId === null).every((transfer) => transfer.crossChain === null))
  // The mint of a burn whose target chain's step the devnet mined: seen by its receiver.
  const mint = expectedEvents(blocks, (event) => event.name === 'TRANSFER_XCHAIN_RECD')[0]!
  const [sender, minted, , source] = JSON.parse(mint.item.params) as string[]
  const received = (await allPages((o) => store.index.transfers({ account: minted!, ...o }), {})).items.find(
    (x) => x.sender === '' && x.pactId !== null,
  )!
  t.same(received.crossChain, { chain: source, account: sender })
  t.equal(received.received, true)
  const token = expectedEvents(blocks, (event) => event.module === 'free.weft-token')[0]!
  const holder = (JSON.parse(token.item.params) as string[])[1]!
  t.same(
    (await store.index.transfers({ account: holder, token: 'free.weft-token', limit: 1000 })).items.map(placeOf),
    expectedTransfers(blocks, holder, 'free.weft-token').map(expectedPlace),
  )
  t.same(await store.index.transfers({ account: 'k:nobody' }), { items: [], next: undefined })
})

t.test('only canonical copies, when asked: an orphaned block’s events are left out, and marked otherwise', async (t) => {
  const { store, blocks } = await filledStore(t)
  const chain0 = onChain(blocks, 0)
  // A four-block fork on chain 0 from height 17, longer than the line, orphans its last three blocks.
  const fork = forkLine(network, chain0[16]!.header, devnetPayloads.slice(0, 4), blocks)
  await store.insertMany(fork)
  t.equal(store.cut().get(0)?.height, 21, 'the fork won')
  const all = await store.index.events({ module: 'coin', name: 'TRANSFER', chain: 0, limit: 1000 })
  const orphaned = all.items.filter((event) => !event.block.canonical)
  t.same([...new Set(orphaned.map((event) => event.block.height))], [20, 19, 18])
  t.ok(orphaned.every((event) => event.block.depth === 21 - event.block.height))
  const canonical = await store.index.events({ module: 'coin', name: 'TRANSFER', chain: 0, limit: 1000, canonicalOnly: true })
  t.same(
    canonical.items,
    all.items.filter((event) => event.block.canonical),
  )
  const blocksPage = await store.index.blocks({ chain: 0, canonicalOnly: true, maxheight: 20, minheight: 18 })
  t.same(
    blocksPage.items.map((item) => [item.block.hash, item.transactionCount]),
    fork
      .slice(0, 3)
      .reverse()
      .filter((block) => block.payload.transactions.length > 0)
      .map((block) => [block.header.hash.toString('base64url'), block.payload.transactions.length]),
    "the fork's blocks with transactions, not the orphans at those heights",
  )
  t.ok(blocksPage.items.length > 0)
  const account = (JSON.parse(orphaned[0]!.params) as string[])[1]!
  const transfers = await store.index.transfers({ account, chain: 0, canonicalOnly: true, limit: 1000 })
  t.ok(transfers.items.every((transfer) => transfer.block.canonical))
})

t.test('paging limits: a scan limit ends pages early with a next; limits are bounded; cursors of other queries are refused', async (t) => {
  const { store, blocks } = await filledStore(t)
  const expected = expectedEvents(blocks, (event) => event.module === 'coin' && event.name === 'TRANSFER' && event.position === -1)
  const scanned = await allPages((o) => store.index.events({ module: 'coin', name: 'TRANSFER', chain: 2, ...o }), { scanLimit: 3 })
  t.ok(
    scanned.pages.some((page) => page.items.length === 0 && page.next !== undefined),
    'an empty page can still go on',
  )
  t.same(
    scanned.items.map(placeOf),
    expectedEvents(blocks, (event) => event.module === 'coin' && event.name === 'TRANSFER')
      .filter(({ block }) => block.header.chainId === 2)
      .map(expectedPlace),
  )
  t.ok(expected.length > 0)
  const full = await store.index.events({ module: 'coin', name: 'TRANSFER', limit: 5000 })
  t.ok(full.items.length <= 1000 && full.items.length > 200)
  for (const limit of [0, -1, 1.5]) await t.rejects(store.index.blocks({ limit }), { code: 'INVALID_INDEX_QUERY' }, String(limit))
  await t.rejects(store.index.blocks({ scanLimit: 0 }), { code: 'INVALID_INDEX_QUERY' })
  const page = await store.index.events({ module: 'coin', name: 'TRANSFER', limit: 2 })
  await t.rejects(store.index.events({ module: 'coin', name: 'TRANSFER_XCHAIN', next: page.next! }), { code: 'CURSOR_OUT_OF_RANGE' })
  await t.rejects(store.index.transfers({ account: 'k:x', next: page.next! }), { code: 'CURSOR_OUT_OF_RANGE' })
  await t.rejects(store.index.events({ module: 'pact', next: page.next! }), { code: 'CURSOR_OUT_OF_RANGE' })
  t.same(
    (await store.index.events({ module: 'coin', next: page.next!, limit: 1 })).items.length,
    1,
    "a name's cursor goes on in its module",
  )
  await t.rejects(store.index.blocks({ next: 'not a cursor!' }), { code: 'INVALID_INDEX_QUERY' })
  // A cursor of this query's range that names no stored entry.
  const forged = encodeCursor({ key: Buffer.concat([eventRange({ module: 'coin', name: 'TRANSFER' }).gte, Buffer.alloc(9)]), taken: 1 })
  await t.rejects(store.index.events({ module: 'coin', name: 'TRANSFER', next: forged.toString('base64url') }), {
    code: 'INVALID_INDEX_QUERY',
  })
  const start = encodeCursor({ key: Buffer.from(eventRange({ module: 'coin', name: 'TRANSFER' }).gte), taken: 0 })
  t.same(
    (await store.index.events({ module: 'coin', name: 'TRANSFER', next: start.toString('base64url'), limit: 3 })).items,
    (await store.index.events({ module: 'coin', name: 'TRANSFER', limit: 3 })).items,
    'a cursor at a key with nothing taken starts there',
  )
})
