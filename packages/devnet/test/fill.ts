import { getNetwork } from '@weft/block'
import { type ChainStore, openStore } from '@weft/store'
import { freshFolder } from '@weft/test-kit'
import t, { type Test } from 'tap'
import { fill } from '../src/fill.js'
import { checkBraid } from './fixtures/braid-check.js'

const open = async (
  t: Test,
  network: 'development' | 'test-singleton' | 'mainnet01' | 'testnet06' = 'development',
  path = freshFolder(t),
): Promise<ChainStore> => {
  const store = await openStore({ path, network })
  t.teardown(() => store.close())
  return store
}

// Every hash the store announces, in insertion order.
const recordInserts = (store: ChainStore): string[] => {
  const hashes: string[] = []
  store.subscribe((event) => {
    if (event.type === 'inserted') hashes.push(event.header.hash.toString('base64url'))
  })
  return hashes
}

t.test("twenty thousand filled blocks all pass the store's validation and form a consistent, fork-rich braid", async (t) => {
  const store = await open(t)
  const progress: Array<[number, number]> = []
  const inserted = recordInserts(store)
  const summary = await fill(store, {
    blocks: 20000,
    seed: 'twenty-thousand',
    forkRate: 0.03,
    onProgress: (done, total) => progress.push([done, total]),
  })
  t.equal(summary.blocks, 20000)
  t.equal(inserted.length, 20000, 'the store accepted (validated and stored) every block')
  t.same(progress.at(-1), [20000, 20000])
  t.ok(
    progress.every(([done], i) => i === 0 || done > progress[i - 1]![0]),
    'progress only moves forward',
  )

  const report = await checkBraid(store)
  t.same(report.problems, [])
  t.equal(report.total, 20000 + 20, 'the new blocks and the 20 genesis blocks are stored')
  t.ok(report.orphans > 0, 'forks left orphans in the store')
  t.equal(report.orphans, summary.orphans, 'every orphan fill reported is off the winning branches')
  // Creation times come from the heights, not the wall clock: one block delay (30 s) per height
  // after the genesis time, two more from height 2 on (the faked first epoch start).
  const network = getNetwork('development')
  for (const head of store.cut().values())
    t.equal(head.creationTime, network.genesisTime + (head.height + 2) * 30_000_000, `chain ${head.chainId} at ${head.height}`)
})

t.test('the same seed on a fresh store gives identical hashes, another seed different ones', async (t) => {
  const run = async (seed: string | number) => {
    const store = await open(t)
    const inserted = recordInserts(store)
    await fill(store, { blocks: 500, seed, forkRate: 0.1 })
    return inserted
  }
  const first = await run('same')
  const second = await run('same')
  t.equal(first.length, 500)
  t.same(second, first)
  const other = await run('other')
  t.ok(
    other.every((hash) => !first.includes(hash)),
    'no block is shared',
  )
})

t.test('without a seed fill is still deterministic', async (t) => {
  const run = async () => {
    const store = await open(t)
    const inserted = recordInserts(store)
    await fill(store, { blocks: 50 })
    return inserted
  }
  t.same(await run(), await run())
})

t.test('a second fill continues the chains the first one left in the same folder', async (t) => {
  const path = freshFolder(t)
  const first = await openStore({ path, network: 'development' })
  await fill(first, { blocks: 400, seed: 1, forkRate: 0.2 })
  const before = new Map(first.cut())
  await first.close()

  const store = await open(t, 'development', path)
  t.same(
    [...store.cut().values()].map((h) => h.hash),
    [...before.values()].map((h) => h.hash),
    'the store kept its cut',
  )
  const summary = await fill(store, { blocks: 400, seed: 2, forkRate: 0.2 })
  const report = await checkBraid(store)
  t.same(report.problems, [])
  t.equal(report.total, 800 + 20)
  for (const [chain, head] of before) {
    t.ok(report.winners.get(chain)?.get(head.height)?.hash.equals(head.hash), `chain ${chain} grew on top of its old head`)
    t.ok(store.cut().get(chain)!.height > head.height)
  }
  t.ok(summary.orphans > 0)
})

t.test('on test-singleton the one chain grows without adjacents', async (t) => {
  const store = await open(t, 'test-singleton')
  const summary = await fill(store, { blocks: 300, seed: 'single', forkRate: 0.1 })
  const report = await checkBraid(store)
  t.same(report.problems, [])
  t.equal(store.cut().get(0)!.height, 300 - summary.orphans)
  t.same(store.cut().get(0)!.adjacents, [])
})

t.test('filling no blocks stores nothing and reports it once', async (t) => {
  const store = await open(t)
  const progress: Array<[number, number]> = []
  const summary = await fill(store, { blocks: 0, onProgress: (done, total) => progress.push([done, total]) })
  t.same(summary, { blocks: 0, orphans: 0 })
  t.same(progress, [[0, 0]])
  t.ok([...store.cut().values()].every((head) => head.height === 0))
})

t.test('a fork is never started on the last block, so fill adds exactly the blocks asked for', async (t) => {
  const store = await open(t, 'test-singleton')
  const summary = await fill(store, { blocks: 1, forkRate: 1 })
  t.same(summary, { blocks: 1, orphans: 0 })
  const more = await fill(store, { blocks: 5, forkRate: 1 })
  t.same(more, { blocks: 5, orphans: 2 }, 'two forks of two blocks, then one block')
})

t.test('bad options are refused with INVALID_OPTION before anything is mined', async (t) => {
  const store = await open(t)
  for (const blocks of [-1, 1.5, Number.NaN]) {
    await t.rejects(fill(store, { blocks }), { code: 'INVALID_OPTION', option: 'blocks' })
  }
  await t.rejects(
    fill(store, { blocks: '5' as unknown as number }),
    { message: 'Expected blocks to be a non-negative integer, received "5"' },
    'a JavaScript caller passing text is told so',
  )
  for (const forkRate of [-0.1, 1.01, Number.NaN]) {
    await t.rejects(fill(store, { blocks: 1, forkRate }), { code: 'INVALID_OPTION', option: 'forkRate' })
  }
  await t.rejects(fill(store, { blocks: 1, seed: Number.POSITIVE_INFINITY }), { code: 'INVALID_OPTION', option: 'seed' })
  await t.rejects(fill(store, { blocks: 1, seed: {} as unknown as string }), { code: 'INVALID_OPTION', option: 'seed' })
  t.ok([...store.cut().values()].every((head) => head.height === 0))
})

t.test('a network whose target is too hard for a CPU is refused with TARGET_TOO_HARD', async (t) => {
  const store = await open(t, 'testnet06')
  await t.rejects(fill(store, { blocks: 1 }), { code: 'TARGET_TOO_HARD' })
})
