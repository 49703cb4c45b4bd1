import { compareHeads, EASY_TARGET, type Header } from '@weft/block'
import { type ChainStore, openStore, type StoreEvent } from '@weft/store'
import { freshFolder, lowestHead, storeReaches } from '@weft/test-kit'
import t, { type Test } from 'tap'
import { fill } from '../src/fill.js'
import { createProducer } from '../src/producer.js'
import { reorg } from '../src/reorg.js'
import { checkBraid } from './fixtures/braid-check.js'

const open = async (t: Test, network: 'development' | 'test-singleton'): Promise<ChainStore> => {
  const store = await openStore({ path: freshFolder(t), network })
  t.teardown(() => store.close())
  return store
}
const b64 = (hash: Buffer): string => hash.toString('base64url')

// The line of blocks from `head` down to (not including) `stop`'s height, read from the store.
async function lineDown(store: ChainStore, head: Header, stopHeight: number): Promise<Header[]> {
  const line: Header[] = []
  for (let at: Header | undefined = head; at !== undefined && at.height > stopHeight; at = await store.getHeader(at.parent)) line.push(at)
  return line
}

// How long it takes is a figure of `pnpm bench` (bench/fill.ts), not of a test.
t.test('a chain 1,000 blocks deep is replaced by a heavier branch from its fork point', async (t) => {
  const store = await open(t, 'test-singleton')
  await fill(store, { blocks: 1100, seed: 'deep', forkRate: 0.05 })
  const oldHead = store.cut().get(0)!
  const events: StoreEvent[] = []
  store.subscribe((event) => events.push(event))
  const summary = await reorg(store, { chains: [0], depth: 1000, seed: 'deep-reorg' })
  t.equal(summary.blocks, 1000)
  const [chain] = summary.chains
  t.same(
    [chain!.chain, chain!.oldHead.hash, chain!.forkPoint.height, chain!.newHead.height],
    [0, oldHead.hash, oldHead.height - 1000, oldHead.height],
  )
  // Both branches keep the target of the rules, so they weigh the same: the lower hash wins the tie.
  t.equal(chain!.newHead.weight, oldHead.weight, 'as heavy as the old head')
  t.ok(compareHeads(chain!.newHead, oldHead) < 0, 'and wins the tie by its lower hash')
  t.same(store.cut().get(0)!.hash, chain!.newHead.hash, 'the cut moved to the new head')
  t.ok(await store.getHeader(oldHead.hash), 'the old head stays stored')
  const newLine = await lineDown(store, chain!.newHead, chain!.forkPoint.height)
  t.equal(newLine.length, 1000)
  t.same(newLine.at(-1)!.parent, chain!.forkPoint.hash, 'the branch starts at the fork point')
  t.ok(
    newLine.every((header) => header.target === EASY_TARGET),
    'every block at the target of the rules, the easy target',
  )
  const joined = events.flatMap((event) => (event.type === 'cut' ? event.joined : []))
  t.same(
    joined.map((block) => b64(block.header.hash)),
    newLine.map((header) => b64(header.hash)).reverse(),
    'the cut joined the new branch once, ancestors first, at the last write',
  )
  t.equal(events.filter((event) => event.type === 'cut').length, 1, 'one cut move')
})

t.test('several chains reorganise at once, neighbours naming each other’s new blocks', async (t) => {
  const store = await open(t, 'development')
  await fill(store, { blocks: 500, seed: 'multi', forkRate: 0.05 })
  const summary = await reorg(store, { chains: [3, 8, 12], depth: 12 })
  t.equal(summary.blocks, 36)
  const branches = new Map<number, Map<number, Header>>()
  for (const { chain, newHead, forkPoint } of summary.chains) {
    t.same(store.cut().get(chain)!.hash, newHead.hash, `chain ${chain}: the cut moved`)
    branches.set(chain, new Map((await lineDown(store, newHead, forkPoint.height)).map((header) => [header.height, header])))
  }
  // Chains 3 and 8 are neighbours in the twenty-chain graph.
  for (const [height, header] of branches.get(3)!) {
    const named = header.adjacents.find(([chain]) => chain === 8)![1]
    const expected = branches.get(8)!.get(height - 1) ?? (await lineDown(store, store.cut().get(8)!, height - 2)).at(-1)!
    t.same(named, expected.hash, `chain 3 at ${height} names chain 8's block at ${height - 1} on its new branch`)
  }
  const report = await checkBraid(store)
  t.ok(
    report.problems.every((problem) => /adjacent on chain (3|8|12) is not/.test(problem)),
    'only the neighbours that did not reorganise still name the old blocks',
  )
})

t.test('a running producer reorganises between two blocks and mines on the new branch', async (t) => {
  const store = await open(t, 'development')
  const producer = createProducer(store, { blockDelay: 0.02, seed: 'live-reorg' })
  producer.start()
  await storeReaches(store, () => lowestHead(store) >= 8, 'height 8 on every chain')
  const summary = await producer.reorg({ chains: [5], depth: 4 })
  const newHeight = summary.chains[0]!.newHead.height
  await storeReaches(store, () => store.cut().get(5)!.height > newHeight, 'a block on chain 5 above the new head')
  await producer.stop()
  const head = store.cut().get(5)!
  t.ok(head.height > newHeight, 'chain 5 grew on')
  const line = await lineDown(store, head, summary.chains[0]!.forkPoint.height)
  t.ok(
    line.some((header) => header.hash.equals(summary.chains[0]!.newHead.hash)),
    'on top of the new branch',
  )
  t.same((await producer.reorg({ chains: [5], depth: 1 })).blocks, 1, 'a stopped producer reorganises at once')
  await t.rejects(producer.reorg({ chains: [5], depth: 0 }), { code: 'INVALID_OPTION', option: 'depth' })
})

t.test('a reorg asked as the producer stops is done once it stopped; one asked of a failing producer fails with it', async (t) => {
  const store = await open(t, 'test-singleton')
  await fill(store, { blocks: 10 })
  const producer = createProducer(store, { blockDelay: 5, seed: 'stopping' })
  producer.start()
  await new Promise((resolve) => setTimeout(resolve, 50))
  const asked = producer.reorg({ chains: [0], depth: 2 })
  await producer.stop()
  t.equal((await asked).blocks, 2)
  const testnet = await openStore({ path: freshFolder(t), network: 'testnet06' })
  t.teardown(() => testnet.close())
  const failing = createProducer(testnet, { blockDelay: 1, onError: () => {} })
  failing.start()
  await t.rejects(failing.reorg({ chains: [0], depth: 1 }), { code: 'TARGET_TOO_HARD' })
  await failing.stop()
})

t.test('bad reorg options are refused with INVALID_OPTION', async (t) => {
  const store = await open(t, 'test-singleton')
  await fill(store, { blocks: 5 })
  for (const [options, option] of [
    [{ chains: [0], depth: 0 }, 'depth'],
    [{ chains: [0], depth: 1.5 }, 'depth'],
    [{ chains: [0], depth: 6 }, 'depth'],
    [{ chains: [], depth: 1 }, 'chains'],
    [{ chains: [0, 0], depth: 1 }, 'chains'],
    [{ chains: [1], depth: 1 }, 'chains'],
    [{ chains: [0], depth: 1, seed: Number.NaN }, 'seed'],
  ] as const) {
    await t.rejects(reorg(store, options), { code: 'INVALID_OPTION', option }, JSON.stringify(options))
  }
})
