import { genesisBlock, getNetwork, withPayloadHashes } from '@weft/block'
import { deriveEntries } from '@weft/index'
import t, { type Test } from 'tap'
import { openStore } from '../src/index.js'
import { transactionTexts } from './fixtures/index-expectations.js'
import { devnetPayloads, forkLine, onChain, payloadBraid, requestKeysOf, tipsOf } from './fixtures/indexed-blocks.js'

const network = getNetwork('development')
const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url')

async function storeOf(t: Test) {
  const store = await openStore({ path: t.testdir(), network: 'development' })
  t.teardown(() => store.close())
  return store
}

t.test('two transactions of one block whose request keys share the 12 bytes an entry keeps are both found', async (t) => {
  const store = await storeOf(t)
  const carried = devnetPayloads.find((payload) => payload.transactions.length >= 3)!
  const [first] = deriveEntries({ chain: 0, height: 1, hash: Buffer.alloc(32), payload: carried }).transactions.map((tx) => tx.requestKey)
  // The third transaction's output gets a request key that begins as the first's and differs after.
  const twin = `${first!.slice(0, 16)}${first!.slice(16, 42).split('').reverse().join('')}${first!.slice(42)}`
  t.not(twin, first)
  const output = JSON.parse(Buffer.from(carried.transactions[2]![1], 'base64url').toString('utf8')) as Record<string, unknown>
  const transactions = carried.transactions.map(([command, result], at): [string, string] =>
    at === 2 ? [command, Buffer.from(JSON.stringify({ ...output, reqKey: twin })).toString('base64url')] : [command, result],
  )
  const payload = withPayloadHashes({ transactions, minerData: carried.minerData, coinbase: carried.coinbase })
  const braid = payloadBraid(network, store.cut(), 1, (chain) => (chain === 0 ? payload : undefined))
  await store.insertMany(braid)
  const [block] = onChain(braid, 0)
  for (const [key, position] of [
    [first!, 0],
    [twin, 2],
  ] as const) {
    const { copies } = await store.index.transaction(key)
    t.same(
      copies.map((copy) => [copy.requestKey, copy.block.hash, copy.position]),
      [[key, text(block!.header.hash), position]],
      `${key} at position ${position}`,
    )
  }
})

t.test('every transaction is found at its block and position, with its command and result as the payload holds them', async (t) => {
  const store = await storeOf(t)
  const braid = payloadBraid(network, store.cut(), devnetPayloads.length, (chain, i) => (chain === 0 ? devnetPayloads[i] : undefined))
  await store.insertMany(braid)
  const blocks = onChain(braid, 0)
  const head = blocks.at(-1)!.header
  let found = 0
  for (const block of blocks)
    for (const [position, requestKey] of requestKeysOf(block).entries()) {
      const lookup = await store.index.transaction(requestKey)
      t.same(lookup, {
        complete: true,
        copies: [
          {
            requestKey,
            block: {
              chain: 0,
              height: block.header.height,
              hash: text(block.header.hash),
              parent: text(block.header.parent),
              creationTime: block.header.creationTime,
              canonical: true,
              depth: head.height - block.header.height,
            },
            position,
            ...transactionTexts(block, position),
          },
        ],
      })
      found++
    }
  t.ok(found > 100, `${found} transactions`)
  const [requestKey] = requestKeysOf(blocks[0]!)
  t.same((await store.index.transaction(requestKey!, { chain: 0 })).copies.length, 1)
  t.same(await store.index.transaction(requestKey!, { chain: 1 }), { complete: true, copies: [] }, 'another chain has none')
  // The entry holds 12 bytes of the key: a key sharing them is confirmed against the payload, and is not this one.
  const sibling = `${requestKey!.slice(0, 20)}${requestKey!.slice(20, 42).split('').reverse().join('')}${requestKey!.slice(42)}`
  t.not(sibling, requestKey)
  t.same(await store.index.transaction(sibling), { complete: true, copies: [] })
  t.same(await store.index.transaction(text(Buffer.alloc(32, 7))), { complete: true, copies: [] })
  for (const bad of ['short', `${requestKey!.slice(0, 42)}*`])
    await t.rejects(store.index.transaction(bad), { code: 'INVALID_INDEX_QUERY' }, bad)
  await t.rejects(store.index.transaction(requestKey!, { chain: -1 }), { code: 'INVALID_INDEX_QUERY' })
})

t.test('a reorg moves a copy from canonical to orphaned and back at once, with its depth below the head', async (t) => {
  const store = await storeOf(t)
  // Ten heights of every chain, chain 0's blocks carrying devnet payloads.
  const braid = payloadBraid(network, store.cut(), 10, (chain, i) => (chain === 0 ? devnetPayloads[i] : undefined))
  await store.insertMany(braid)
  const line = onChain(braid, 0)
  // A transaction of payload 6 (height 7); a longer fork from height 3 carries payload 6 again at height 4.
  const [requestKey] = requestKeysOf(line[6]!)
  const marks = async () =>
    (await store.index.transaction(requestKey!)).copies.map((copy) => [copy.block.height, copy.block.canonical, copy.block.depth])
  t.same(await marks(), [[7, true, 3]])
  const fork = forkLine(network, line[2]!.header, [devnetPayloads[6]!, ...devnetPayloads.slice(20, 27)], braid)
  await store.insertMany(fork)
  t.equal(store.cut().get(0)?.hash.equals(fork.at(-1)!.header.hash), true, 'the fork won, at height 11')
  t.same(
    await marks(),
    [
      [4, true, 7],
      [7, false, 4],
    ],
    'the copy at height 7 is orphaned, the one at 4 canonical, in the same read',
  )
  // Two more heights of every chain on the first line (chain 0 from height 10): it is the longer again.
  const back = payloadBraid(network, tipsOf(braid), 2, (chain, i) => (chain === 0 ? devnetPayloads[30 + i] : undefined))
  await store.insertMany(back)
  t.equal(store.cut().get(0)?.height, 12, 'the first line won again')
  t.same(await marks(), [
    [7, true, 5],
    [4, false, 8],
  ])
  // Canonical-only pages follow the same moves.
  const events = await store.index.events({ module: 'coin', name: 'TRANSFER', chain: 0, canonicalOnly: true, limit: 1000 })
  t.notOk(
    events.items.some((event) => fork.some((block) => block.header.hash.toString('base64url') === event.block.hash)),
    "no event of the fork's blocks",
  )
})

t.test('the later steps of a pact are found by its id, and the transactions of a block by its hash', async (t) => {
  const store = await storeOf(t)
  const braid = payloadBraid(network, store.cut(), devnetPayloads.length, (chain, i) => (chain === 3 ? devnetPayloads[i] : undefined))
  await store.insertMany(braid)
  const blocks = onChain(braid, 3)
  const steps = blocks.flatMap((block) => {
    const { chainId: chain, height, hash } = block.header
    return deriveEntries({ chain, height, hash, payload: block.payload }).transactions.flatMap((transaction) =>
      transaction.pactId === undefined ? [] : [{ block, transaction }],
    )
  })
  t.ok(steps.length >= 3, `${steps.length} later steps`)
  for (const { block, transaction } of steps) {
    const lookup = await store.index.pactSteps(transaction.pactId!)
    t.same(
      lookup.copies.map((copy) => [copy.requestKey, copy.block.hash, copy.position]),
      [[transaction.requestKey, text(block.header.hash), transaction.position]],
    )
    t.equal((await store.index.pactSteps(transaction.pactId!, { chain: 4 })).copies.length, 0)
    // The pact's first step is the transaction whose request key is the pact id.
    t.equal((await store.index.transaction(transaction.pactId!)).copies.length, 1)
  }
  const block = blocks[3]!
  const transactions = await store.index.blockTransactions(text(block.header.hash))
  t.same(
    transactions?.map((copy) => [copy.requestKey, copy.position, copy.command]),
    requestKeysOf(block).map((requestKey, position) => [requestKey, position, transactionTexts(block, position).command]),
  )
  t.same(await store.index.blockTransactions(block.header.hash), transactions, 'the hash as bytes')
  t.same(await store.index.blockTransactions(genesisBlock(network, 5).header.hash), [], 'a genesis block')
  t.same(await store.index.blockTransactions(store.cut().get(5)!.hash), [], 'a block with no transactions')
  t.equal(await store.index.blockTransactions(Buffer.alloc(32, 1)), undefined, 'an unknown block')
  await t.rejects(store.index.blockTransactions('not a hash'), { code: 'INVALID_INDEX_QUERY' })
})

t.test('blocks with transactions come newest first, marked, paged without skipping or repeating one', async (t) => {
  const store = await storeOf(t)
  const braid = payloadBraid(network, store.cut(), 30, (chain, i) => (chain === 2 ? devnetPayloads[i] : undefined))
  await store.insertMany(braid)
  const blocks = onChain(braid, 2)
  const expected = blocks
    .filter((block) => block.payload.transactions.length > 0)
    .reverse()
    .map((block) => [text(block.header.hash), block.payload.transactions.length])
  const seen: Array<[string, number]> = []
  let next: string | undefined
  do {
    const page = await store.index.blocks({ limit: 4, ...(next === undefined ? {} : { next }) })
    seen.push(...page.items.map((item): [string, number] => [item.block.hash, item.transactionCount]))
    next = page.next
  } while (next !== undefined)
  t.same(seen, expected)
  const bounded = await store.index.blocks({ minheight: 10, maxheight: 12, chain: 2 })
  t.same(
    bounded.items.map((item) => item.block.height),
    [12, 11, 10].filter((height) => blocks[height - 1]!.payload.transactions.length > 0),
  )
  t.same((await store.index.blocks({ chain: 3 })).items, [], 'chain 3 has none')
})

t.test('index reads after close throw STORE_CLOSED', async (t) => {
  const store = await openStore({ path: t.testdir(), network: 'development' })
  await store.close()
  await t.rejects(store.index.transaction('A'.repeat(43)), { code: 'STORE_CLOSED' })
  await t.rejects(store.index.blocks(), { code: 'STORE_CLOSED' })
})
