import { setTimeout as delay } from 'node:timers/promises'
import { EASY_TARGET } from '@weft/block'
import { type ChainStore, openStore } from '@weft/store'
import { freshFolder, lowestHead, storeReaches } from '@weft/test-kit'
import t, { type Test } from 'tap'
import { fill } from '../src/fill.js'
import { createProducer } from '../src/producer.js'
import { checkBraid } from './fixtures/braid-check.js'

const open = async (t: Test, network: 'development' | 'testnet06' = 'development', path = freshFolder(t)): Promise<ChainStore> => {
  const store = await openStore({ path, network })
  t.teardown(() => store.close())
  return store
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

t.test('live, every chain advances, at most about one block per delay, and the braid stays consistent', async (t) => {
  const store = await open(t)
  const started = performance.now()
  const producer = createProducer(store, { blockDelay: 0.1, forkRate: 0.1, seed: 'live' })
  producer.start()
  producer.start() // a second start changes nothing
  // About a second on a quiet machine; a busy one makes it later, never wrong.
  await storeReaches(store, () => lowestHead(store) >= 8, 'height 8 on every chain')
  await producer.stop()
  const seconds = (performance.now() - started) / 1000
  const heights = [...store.cut().values()].map((head) => head.height)
  t.equal(heights.length, 20)
  // A chain waits 0.5 to 1.5 delays after each of its blocks, 1 on average, and longer for its neighbours.
  t.ok(
    heights.every((h) => h <= seconds / 0.05 + 1),
    `heights ${heights.join(' ')} in ${seconds.toFixed(2)} s: none past one block per half delay`,
  )
  const mean = heights.reduce((sum, h) => sum + h, 0) / heights.length
  t.ok(mean <= seconds / 0.08 + 1, `mean height ${mean} in ${seconds.toFixed(2)} s: about one block per delay at most`)
  const report = await checkBraid(store)
  t.same(report.problems, [])
  t.ok(report.orphans > 0, 'forks left orphans')
  // Creation times are the devnet's grid, not the wall clock's: one network block delay (30 s) per
  // height from the genesis time, whatever blockDelay is, and two more at height 2 (the faked first
  // epoch start), so that every epoch keeps the easy target.
  const network = store.network
  const spacing = network.blockDelay * 1_000_000
  const grid = (height: number): number => network.genesisTime + (height === 1 ? 1 : height + 2) * spacing
  const blocks = [...report.headers.values()].filter((h) => h.height > 0)
  t.same(
    blocks.filter((h) => h.creationTime !== grid(h.height)).map((h) => `${h.chainId}:${h.height}`),
    [],
    'every creation time on the grid',
  )
  t.ok(
    blocks.every((h) => h.target === EASY_TARGET),
    'every block at the easy target',
  )
})

t.test('blocks that fell due during a slow insert go in together, so the producer keeps its rate', async (t) => {
  const store = await open(t)
  // A listener that holds the event loop for 50 ms once per insert, as a fan-out to many event-stream
  // clients does: at one block per insert the producer could not pass 20 blocks a second.
  let blocks = 0
  let inserts = 0
  let holding = false
  store.subscribe((event) => {
    if (event.type !== 'inserted') return
    blocks += 1
    if (holding) return
    holding = true
    inserts += 1
    queueMicrotask(() => {
      const until = performance.now() + 50
      while (performance.now() < until) {}
      holding = false
    })
  })
  const producer = createProducer(store, { blockDelay: 0.1, seed: 'slow-listener' })
  const started = performance.now()
  producer.start()
  await storeReaches(store, () => blocks >= 100, '100 blocks')
  await producer.stop()
  const ms = performance.now() - started
  t.ok(inserts <= ms / 50 + 1, `at most one insert per 50 ms (${inserts} in ${Math.round(ms)} ms)`)
  t.ok(blocks >= 2 * inserts, `${blocks} blocks in ${inserts} inserts, more than one per insert`)
  t.same((await checkBraid(store)).problems, [])
})

t.test('a restarted producer continues the same chains on the same folder', async (t) => {
  const path = freshFolder(t)
  const first = await openStore({ path, network: 'development' })
  const producer = createProducer(first, { blockDelay: 0.05 })
  producer.start()
  await storeReaches(first, () => lowestHead(first) >= 1, 'a block on every chain')
  await producer.stop()
  const before = new Map(first.cut())
  await first.close()

  const store = await open(t, 'development', path)
  const again = createProducer(store, { blockDelay: 0.05 })
  again.start()
  const grown = () => [...before].every(([chain, head]) => store.cut().get(chain)!.height > head.height)
  await storeReaches(store, grown, 'a new block on every chain')
  await again.stop()
  const report = await checkBraid(store)
  t.same(report.problems, [])
  for (const [chain, head] of before) {
    t.ok(head.height > 0, `chain ${chain} grew in the first run`)
    t.ok(store.cut().get(chain)!.height > head.height, `chain ${chain} grew in the second run`)
    t.ok(report.winners.get(chain)?.get(head.height)?.hash.equals(head.hash), `chain ${chain} grew on top of its old head`)
  }
})

t.test('stopping a producer that never started, or twice, is harmless; a stopped one does not restart', async (t) => {
  const store = await open(t)
  const producer = createProducer(store, { blockDelay: 0.01 })
  await producer.stop()
  producer.start()
  await sleep(100)
  await producer.stop()
  t.ok([...store.cut().values()].every((head) => head.height === 0))
})

t.test('a stop asked during a reorg stops the producer then, with no block after the reorg and no wait for the next', async (t) => {
  const store = await open(t)
  await fill(store, { blocks: 60, seed: 'stop-in-reorg' })
  // Ten minutes between blocks: a stop that waited for the next block would take that long.
  const producer = createProducer(store, { blockDelay: 600, seed: 'stop-in-reorg' })
  producer.start()
  let stopped: Promise<void> | undefined
  store.subscribe((event) => {
    if (event.type === 'inserted' && stopped === undefined) stopped = producer.stop()
  })
  await producer.reorg({ chains: [5], depth: 1 })
  t.ok(stopped, 'the stop was asked while the reorg wrote its blocks')
  const inTime = await Promise.race([stopped!.then(() => true), delay(300_000, false, { ref: false })])
  t.ok(inTime, 'stop() resolved within 300 s, not a block delay (600 s) later')
  const heights = [...store.cut().values()].map((head) => head.height)
  await sleep(200)
  t.same(
    [...store.cut().values()].map((head) => head.height),
    heights,
    'no block came after',
  )
})

t.test('a failure halts the producer and goes to onError', async (t) => {
  const store = await open(t, 'testnet06')
  const errors: unknown[] = []
  let halted = (): void => {}
  const failed = new Promise<void>((resolve) => {
    halted = resolve
  })
  const onError = (error: unknown): void => {
    errors.push(error)
    halted()
  }
  const producer = createProducer(store, { blockDelay: 0.01, onError })
  producer.start()
  await failed
  await producer.stop()
  t.match(errors, [{ code: 'TARGET_TOO_HARD' }])
})

t.test('a write the store refuses for another cause than a full disk halts the producer and goes to onError', async (t) => {
  const store = await open(t, 'development')
  let halted: (error: unknown) => void = () => undefined
  const failed = new Promise<unknown>((resolve) => {
    halted = resolve
  })
  const producer = createProducer(store, { blockDelay: 0.01, onError: (error) => halted(error) })
  producer.start()
  await storeReaches(store, () => lowestHead(store) >= 1, 'height 1 on every chain')
  // A closed store refuses the next insert: not a full disk, so nothing to wait for.
  await store.close()
  t.match(await failed, { code: 'STORE_CLOSED' })
  await producer.stop()
})

t.test('without onError, stop rejects with the failure that halted the producer', async (t) => {
  const store = await open(t, 'testnet06')
  const producer = createProducer(store, { blockDelay: 0.01 })
  producer.start()
  await t.rejects(producer.stop(), { code: 'TARGET_TOO_HARD' })
})

t.test('bad options are refused with INVALID_OPTION', async (t) => {
  const store = await open(t)
  for (const blockDelay of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
    t.throws(() => createProducer(store, { blockDelay }), { code: 'INVALID_OPTION', option: 'blockDelay' })
  }
  t.throws(() => createProducer(store, { blockDelay: 1, forkRate: 2 }), { code: 'INVALID_OPTION', option: 'forkRate' })
  t.throws(() => createProducer(store, { blockDelay: 1, seed: Number.NaN }), { code: 'INVALID_OPTION', option: 'seed' })
})
