import { type Block, blockToJsonText, genesisBlocks, getNetwork, txCount } from '@weft/block'
import { INDEX_PREFIX } from '@weft/index'
import t, { type Test } from 'tap'
import { type ChainStore, openStore } from '../src/index.js'
import { decodeIndexState, encodeIndexState, indexStateKey } from '../src/index-state.js'
import { metaKey } from '../src/keys.js'
import { expectedEvents, expectedPlace, placeOf } from './fixtures/index-expectations.js'
import { devnetPayloads, expectedEntries, forkLine, onChain, payloadBraid } from './fixtures/indexed-blocks.js'
import { editFolder } from './fixtures/level.js'

const network = getNetwork('development')
const indexRange = { gte: Buffer.of(INDEX_PREFIX), lt: Buffer.of(INDEX_PREFIX + 1) }

// Every index entry the folder holds, keys and values as hex.
async function entriesIn(path: string): Promise<Map<string, string>> {
  const entries = new Map<string, string>()
  await editFolder(path, async (db) => {
    for (const [key, value] of await db.iterator(indexRange).all()) entries.set(key.toString('hex'), value.toString('hex'))
  })
  return entries
}

async function stateIn(path: string) {
  let state: ReturnType<typeof decodeIndexState> | undefined
  await editFolder(path, async (db) => {
    const value = await db.get(indexStateKey)
    state = value === undefined ? undefined : decodeIndexState(value)
  })
  return state
}

// A store whose chains 0, 1 and 2 carry the first `blocks` devnet payloads, braided with the other
// chains' blocks (which, like the genesis blocks, hold no outputs the index takes).
async function filled(path: string, options: { index?: boolean; blocks?: number } = {}) {
  const { blocks: count = 60, ...open } = options
  const store = await openStore({ path, network: 'development', ...open })
  const payloads = devnetPayloads.slice(0, count)
  const all = payloadBraid(network, store.cut(), Math.ceil(count / 3), (chain, i) => (chain < 3 ? payloads[3 * i + chain] : undefined))
  await store.insertMany(all)
  await store.close()
  const expected = new Map<string, string>()
  for (const block of all) for (const [key, value] of expectedEntries(block)) expected.set(key, value)
  return { blocks: all, expected }
}

const open = async (t: Test, path: string, options: { index?: boolean; indexCatchUpBlocks?: number } = {}): Promise<ChainStore> => {
  const store = await openStore({ path, network: 'development', ...options })
  t.teardown(() => store.close())
  return store
}

t.test("each block's index entries are written in its batch, exactly those @weft/index derives", async (t) => {
  const path = t.testdir()
  const { expected } = await filled(path)
  t.ok(expected.size > 400, `the payloads give ${expected.size} entries`)
  t.same(await entriesIn(path), expected)
  t.same(await stateIn(path), { state: 'complete' })
  const store = await open(t, path)
  t.same(store.index.status(), { state: 'complete' })
  t.same(await store.index.caughtUp(), { state: 'complete' }, 'a complete index has nothing to catch up')
})

t.test('single inserts and JSON texts are indexed too, and a block inserted twice is written once', async (t) => {
  const path = t.testdir()
  const store = await open(t, path)
  const braid = payloadBraid(network, store.cut(), 3, (chain, i) => (chain === 5 ? devnetPayloads[i] : undefined))
  const [first, second, third] = onChain(braid, 5)
  const others = (height: number) => braid.filter((block) => block.header.chainId !== 5 && block.header.height === height)
  t.same(await store.insert(first!), { inserted: true })
  t.same(await store.insert(first!), { inserted: false })
  await store.insertMany(others(1))
  t.equal(await store.insertManyJson([Buffer.from(blockToJsonText(second!, 'chainweb'))]), 1)
  await store.insertMany(others(2))
  t.equal(await store.insertMany([first!, second!, third!]), 1)
  await store.close()
  const expected = new Map([...expectedEntries(first!), ...expectedEntries(second!), ...expectedEntries(third!)])
  t.same(await entriesIn(path), expected)
})

t.test('with index: false, blocks are written without entries, the store records it, and index reads say INDEX_DISABLED', async (t) => {
  const path = t.testdir()
  const { blocks } = await filled(path, { index: false, blocks: 12 })
  t.same(await entriesIn(path), new Map(), 'no index entry is written')
  t.same(await stateIn(path), { state: 'disabled' })
  const store = await open(t, path, { index: false })
  t.same(store.index.status(), { state: 'disabled' })
  const requestKey = 'A'.repeat(43)
  await t.rejects(store.index.transaction(requestKey), { code: 'INDEX_DISABLED', name: 'IndexDisabledError', message: /--no-index/ })
  await t.rejects(store.index.pactSteps(requestKey), { code: 'INDEX_DISABLED' })
  await t.rejects(store.index.blockTransactions(blocks[0]!.header.hash), { code: 'INDEX_DISABLED' })
  await t.rejects(store.index.events({ module: 'coin', name: 'TRANSFER' }), { code: 'INDEX_DISABLED' })
  await t.rejects(store.index.transfers({ account: 'k:a' }), { code: 'INDEX_DISABLED' })
  await t.rejects(store.index.blocks(), { code: 'INDEX_DISABLED' })
  await t.rejects(store.index.eventNames(), { code: 'INDEX_DISABLED' })
})

t.test('a store that kept no index, opened with it, catches up to every entry, orphans included, and says so', async (t) => {
  const path = t.testdir()
  const { blocks, expected } = await filled(path, { index: false })
  // A fork of chain 0 from height 10, longer than the line: chain 0 has 11 more blocks to catch up than the others.
  const unindexed = await openStore({ path, network: 'development', index: false })
  const fork = forkLine(network, onChain(blocks, 0)[9]!.header, devnetPayloads.slice(30, 41), blocks)
  await unindexed.insertMany(fork)
  await unindexed.close()
  for (const block of fork) for (const [key, value] of expectedEntries(block)) expected.set(key, value)
  const store = await open(t, path, { indexCatchUpBlocks: 4 })
  const status = store.index.status()
  if (status.state === 'catching-up') {
    t.ok(status.remainingHeights > 0 && status.progress < 1)
    t.same(Object.keys(status.completeFrom).length, 20, 'a position for every chain')
  } else t.equal(status.state, 'complete', 'or the catch-up was already done')
  t.same(await store.index.caughtUp(), { state: 'complete' })
  await store.close()
  t.same(await entriesIn(path), expected)
  t.same(await stateIn(path), { state: 'complete' })
})

t.test('a store written before the index (layout 2, no index record) is taken and catches up', async (t) => {
  const path = t.testdir()
  const { expected } = await filled(path)
  await editFolder(path, async (db) => {
    await db.batch([
      { type: 'put', key: metaKey('layout'), value: Buffer.from('2') },
      { type: 'del', key: indexStateKey },
      ...(await db.keys(indexRange).all()).map((key) => ({ type: 'del' as const, key })),
    ])
  })
  const store = await open(t, path)
  t.equal(store.index.status().state === 'complete' ? 'complete' : 'catching-up', store.index.status().state)
  t.same(await store.index.caughtUp(), { state: 'complete' })
  await store.close()
  t.same(await entriesIn(path), expected)
  await editFolder(path, async (db) => t.equal((await db.get(metaKey('layout')))?.toString(), '3', 'the layout is 3 now'))
})

t.test('a catch-up stopped by close resumes from its recorded position, and the blocks written meanwhile keep their entries', async (t) => {
  const path = t.testdir()
  const { expected } = await filled(path, { index: false })
  // One block per chain and step: 20 steps for the 60 blocks on three chains.
  const first = await openStore({ path, network: 'development', indexCatchUpBlocks: 1 })
  const braid = payloadBraid(network, first.cut(), 3, (chain, i) => (chain === 7 ? devnetPayloads[40 + i] : undefined))
  await first.insertMany(braid)
  const extra = onChain(braid, 7)
  await first.close()
  const stopped = await stateIn(path)
  t.equal(stopped?.state, 'catching-up', 'closed before the catch-up was done')
  const below = stopped?.state === 'catching-up' ? stopped.below : new Map<number, number>()
  t.ok(
    [...below.values()].some((height) => height > 0),
    'with positions above genesis',
  )
  const entries = await entriesIn(path)
  for (const [key, value] of [...expectedEntries(extra[0]!), ...expectedEntries(extra[2]!)]) t.equal(entries.get(key), value)
  const store = await open(t, path, { indexCatchUpBlocks: 7 })
  t.same(await store.index.caughtUp(), { state: 'complete' })
  await store.close()
  const all = new Map([...expected, ...extra.flatMap((block) => [...expectedEntries(block)])])
  t.same(await entriesIn(path), all)
})

t.test('opening a complete store without the index disables it; opening it with the index again catches up', async (t) => {
  const path = t.testdir()
  const { blocks, expected } = await filled(path, { blocks: 9 })
  await (await openStore({ path, network: 'development', index: false })).close()
  t.same(await stateIn(path), { state: 'disabled' })
  // Opened with the index but no catch-up: the entries written before the index was left out are
  // there, but the blocks at those heights may lack theirs, so nothing below the top is answered.
  const frozen = await openStore({ path, network: 'development', indexCatchUp: false })
  const braid = payloadBraid(network, frozen.cut(), 1, (chain) => (chain === 0 ? devnetPayloads[0] : undefined))
  await frozen.insertMany(braid)
  const transfers = (from: readonly Block[]) =>
    expectedEvents(from, (event) => event.module === 'coin' && event.name === 'TRANSFER').map(expectedPlace)
  const page = await frozen.index.events({ module: 'coin', name: 'TRANSFER', limit: 1000 })
  t.same(page.items.map(placeOf), transfers(braid), 'the new block is answered')
  t.equal(page.incompleteBelow, 4, 'the page stops at the height the catch-up has to reach')
  t.type(page.next, 'string')
  await frozen.close()
  const store = await open(t, path)
  t.same(await store.index.caughtUp(), { state: 'complete' })
  const rest = await store.index.events({ module: 'coin', name: 'TRANSFER', limit: 1000, next: page.next! })
  t.same(rest.items.map(placeOf), transfers(blocks), 'once caught up, the next page goes on below it')
  await store.close()
  for (const block of braid) for (const [key, value] of expectedEntries(block)) expected.set(key, value)
  t.same(await entriesIn(path), expected, 'entries written twice are the same entries')
})

t.test('the index state record: what it holds, and a record this store did not write is CORRUPT_STORE', async (t) => {
  const state = {
    state: 'catching-up',
    below: new Map([
      [0, 5],
      [3, 0],
    ]),
    total: 9,
  } as const
  t.same(decodeIndexState(encodeIndexState(state)), state)
  t.same(decodeIndexState(encodeIndexState({ state: 'disabled' })), { state: 'disabled' })
  for (const text of [
    'nope',
    '{"state":"sideways"}',
    '{"state":"catching-up","below":{"x":1},"total":1}',
    '{"state":"catching-up","below":{"1":-1},"total":1}',
    '{"state":"catching-up","below":{"1":0},"total":0}',
    'null',
  ])
    t.throws(() => decodeIndexState(Buffer.from(text)), { code: 'CORRUPT_STORE' }, text)
  const path = t.testdir()
  await (await openStore({ path, network: 'development' })).close()
  await editFolder(path, (db) => db.put(indexStateKey, Buffer.from('{"state":"sideways"}')))
  await t.rejects(openStore({ path, network: 'development' }), { code: 'CORRUPT_STORE', message: /index state/ })
})

t.test(
  "every genesis block's transactions are found, those of chains that join the graph later too (they miss their own target)",
  async (t) => {
    for (const name of ['mainnet01', 'recap-development'] as const) {
      const path = t.testdir()
      const genesis = genesisBlocks(getNetwork(name))
      const lookAll = async (store: ChainStore): Promise<number> => {
        let found = 0
        for (const { header } of genesis) {
          const copies = (await store.index.blockTransactions(header.hash)) ?? []
          t.equal(
            copies.length,
            txCount(genesis.find((block) => block.header.hash === header.hash)!.payload),
            `${name} chain ${header.chainId}`,
          )
          for (const copy of copies) {
            const { copies: again } = await store.index.transaction(copy.requestKey, { chain: header.chainId })
            if (again.some((found) => found.block.hash === copy.block.hash && found.position === copy.position)) found++
          }
        }
        return found
      }
      const store = await openStore({ path, network: name })
      const found = await lookAll(store)
      await store.close()
      t.ok(found > 0, `${name}: ${found} genesis transactions found by request key in a new store`)
      // A store written before: the genesis entries of its later chains missing. Opening it puts them back.
      const later = genesis.filter(({ header }) => header.height > 0)
      t.ok(later.length > 0, `${name}: ${later.length} chains join later`)
      await editFolder(path, async (db) => {
        for (const { header } of later) {
          const keys = (await db.keys(indexRange).all()).filter((key) => key.includes(Buffer.from(header.hash).subarray(0, 8)))
          await db.batch(keys.map((key) => ({ type: 'del' as const, key })))
        }
      })
      const reopened = await openStore({ path, network: name })
      t.equal(await lookAll(reopened), found, `${name}: the same found again once the store is opened`)
      await reopened.close()
    }
  },
)
