import type { Page as CursorPage } from '@weft/cursor'
import { encodeHash } from '@weft/hash-text'
import { until } from '@weft/test-kit'
import { branch, type HeaderRef } from '@weft/traversal'
import type { Problem } from '@weft/types'
import t from 'tap'
import type { RunningServer } from '../../src/index.js'
import { BranchContinuations, type SuspendedWalk } from '../../src/read/branch-continuations.js'
import { type BlockRef, chainBlocks, filledFolder, postJson, startNode } from '../fixtures/node.js'

// One chain of 300+ blocks with orphans, so that a branch has siblings to skip and pages of 7 are many.
const dir = await filledFolder(t, 'test-singleton', 300, 0.25)

function rawOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'base64url'), Buffer.from(b, 'base64url'))
}

// The contract's definition, the slow way: ancestors-or-self of the upper bounds less those of the lower ones.
function bruteForceBranch(
  blocks: readonly BlockRef[],
  upper: readonly string[],
  lower: readonly string[] = [],
  maxheight?: number,
): string[] {
  const byHash = new Map(blocks.map((block) => [block.hash, block]))
  const cover = (hashes: readonly string[]): Set<string> => {
    const seen = new Set<string>()
    for (const hash of hashes)
      for (let at = byHash.get(hash); at !== undefined && !seen.has(at.hash); at = byHash.get(at.parent)) seen.add(at.hash)
    return seen
  }
  const included = cover(upper)
  for (const hash of cover(lower)) included.delete(hash)
  return blocks
    .filter((block) => included.has(block.hash) && (maxheight === undefined || block.height <= maxheight))
    .sort((a, b) => b.height - a.height || rawOrder(a.hash, b.hash))
    .map((block) => block.hash)
}

interface Page {
  hashes: string[]
  next: string | null
}

async function branchPage(base: string, query: string, body: unknown): Promise<Page> {
  const response = await postJson<CursorPage<string>>(`${base}/hash/branch?${query}`, body)
  if (response.status !== 200) throw new Error(`status ${response.status}: ${JSON.stringify(response.json)}`)
  return { hashes: response.json.items, next: response.json.next }
}

// Follows `next` to the end; `cursorOf` may rewrite each cursor before it is sent back.
async function walk(
  base: string,
  limit: number,
  body: unknown,
  cursorOf: (next: string, page: Page) => string = (next) => next,
  afterPage?: () => void,
): Promise<string[]> {
  const hashes: string[] = []
  let page = await branchPage(base, `limit=${limit}`, body)
  for (;;) {
    hashes.push(...page.hashes)
    afterPage?.()
    if (page.next === null) return hashes
    page = await branchPage(base, `limit=${limit}&next=${cursorOf(page.next, page)}`, body)
  }
}

t.test('a node', async (t) => {
  const server: RunningServer = await startNode(t, { data: dir, network: 'test-singleton' })
  const base = `${server.url}/chain/0.0/test-singleton/chain/0`
  const blocks = await chainBlocks(server, 0)
  const tip = blocks[blocks.length - 1]!.hash
  const whole = bruteForceBranch(blocks, [tip])

  t.test(
    'a whole branch paged with limit 7 through kept walks equals one long page, a re-walk at every page, and the brute force',
    async (t) => {
      t.ok(whole.length > 200, `the branch is long (${whole.length} blocks)`)
      t.ok(new Set(blocks.map((block) => block.height)).size < blocks.length, 'the chain has orphans to leave out')
      const kept: number[] = []
      const continued = await walk(base, 7, { upper: [tip] }, undefined, () => kept.push(server.branchContinuations()))
      t.same(continued, whole, 'continued walks')
      t.same(
        kept.slice(0, -1),
        kept.slice(0, -1).map(() => 1),
        'every page with a next keeps its walk, and the next page takes it',
      )
      t.equal(server.branchContinuations(), 0, 'the last page keeps nothing')
      // An exclusive cursor on the last item names the same position, but no kept walk: every page re-walks.
      const rewalked = await walk(base, 7, { upper: [tip] }, (_, page) => `exclusive:${page.hashes[page.hashes.length - 1]}`)
      t.same(rewalked, whole, 're-walked at every page')
      const long = await branchPage(base, 'limit=4096', { upper: [tip] })
      t.same([...long.hashes, ...(long.next === null ? [] : (await walk(base, 360, { upper: [tip] })).slice(360))], whole, 'pages of 360')
    },
  )

  t.test('bounds, heights and lower bounds given in another order or repeated continue the same walk', async (t) => {
    const forkTip = blocks.filter((block) => !whole.includes(block.hash)).at(-1)!.hash
    const upper = [tip, forkTip]
    const lower = [blocks[40]!.hash, blocks[20]!.hash]
    const expected = bruteForceBranch(blocks, upper, lower, 250)
    const before = server.branchContinuations()
    const first = await branchPage(base, 'limit=10&maxheight=250', { upper, lower })
    t.equal(server.branchContinuations(), before + 1)
    const resumed = await branchPage(base, `limit=1000&maxheight=250&next=${first.next}`, {
      upper: [forkTip, tip, forkTip],
      lower: [...lower].reverse(),
    })
    t.same([...first.hashes, ...resumed.hashes], expected)
    t.equal(server.branchContinuations(), before, 'the kept walk was taken, and the last page keeps none')
  })

  t.test('pages of changing limits, each continuing the walk of the page before, give the whole branch in order', async (t) => {
    const limits = [3, 40, 1, 0, 7, 90, 2]
    const hashes: string[] = []
    let page = await branchPage(base, 'limit=5', { upper: [tip] })
    for (let index = 0; ; index++) {
      hashes.push(...page.hashes)
      if (page.next === null) break
      page = await branchPage(base, `limit=${limits[index % limits.length]}&next=${page.next}`, { upper: [tip] })
    }
    t.same(hashes, whole)
  })

  t.test('a cursor used twice gives the same answer both times: the kept walk, then a re-walk', async (t) => {
    const before = server.branchContinuations()
    const first = await branchPage(base, 'limit=20', { upper: [tip] })
    const once = await branchPage(base, `limit=20&next=${first.next}`, { upper: [tip] })
    const twice = await branchPage(base, `limit=20&next=${first.next}`, { upper: [tip] })
    t.same(once, twice)
    t.same(once.hashes, whole.slice(20, 40))
    t.equal(once.next, `inclusive:${whole[40]}`)
    // Both answers kept their walk under the same cursor: the later one replaced the earlier one.
    t.equal(server.branchContinuations(), before + 1)
    const third = await branchPage(base, `limit=20&next=${once.next}`, { upper: [tip] })
    t.same(third.hashes, whole.slice(40, 60))
    const zero = await branchPage(base, `limit=0&next=${third.next}`, { upper: [tip] })
    t.same(zero, { hashes: [], next: third.next }, 'limit 0 keeps the walk at the same cursor')
    t.same((await branchPage(base, `limit=3&next=${zero.next}`, { upper: [tip] })).hashes, whole.slice(60, 63))
  })

  t.test('a cursor off the branch, or given with other bounds, never continues another walk', async (t) => {
    const first = await branchPage(base, 'limit=5', { upper: [tip] })
    const otherBounds = await postJson(`${base}/hash/branch?next=${first.next}`, { upper: [blocks[100]!.hash] })
    t.equal(otherBounds.status, 404, 'the cursor is off that branch: nothing matches')
    const minheight = blocks.at(-1)!.height - 20
    const otherHeights = await branchPage(base, `limit=5&minheight=${minheight}&next=${first.next}`, { upper: [tip] })
    const inHeights = whole.filter((hash) => blocks.find((block) => block.hash === hash)!.height >= minheight)
    t.same(otherHeights.hashes, inHeights.slice(inHeights.indexOf(whole[5]!), inHeights.indexOf(whole[5]!) + 5), 'other heights: a re-walk')
    t.same(
      (await branchPage(base, `limit=5&next=${first.next}`, { upper: [tip] })).hashes,
      whole.slice(5, 10),
      'the kept walk is still there for its own query',
    )
  })

  t.test('heights that exclude everything still check the upper bounds, and keep nothing', async (t) => {
    const before = server.branchContinuations()
    const unknown = await postJson<Problem>(`${base}/hash/branch?minheight=10&maxheight=5`, { upper: [encodeHash(Buffer.alloc(32, 3))] })
    t.same([unknown.status, unknown.json.code], [404, 'BLOCK_NOT_FOUND'])
    const empty = await postJson<Problem>(`${base}/hash/branch?minheight=10&maxheight=5`, { upper: [tip] })
    t.same([empty.status, empty.json.code], [404, 'NO_MATCHING_BLOCKS'])
    t.equal(server.branchContinuations(), before)
  })

  t.test('a walk with a lower bound the store does not know is never kept', async (t) => {
    const unknown = encodeHash(Buffer.alloc(32, 9))
    const before = server.branchContinuations()
    const page = await branchPage(base, 'limit=5', { upper: [tip], lower: [unknown] })
    t.same(page.hashes, whole.slice(0, 5))
    t.equal(server.branchContinuations(), before)
    t.same((await branchPage(base, `limit=5&next=${page.next}`, { upper: [tip], lower: [unknown] })).hashes, whole.slice(5, 10))
  })

  t.test('walks evicted by size are re-walked with the same answers, and the cache stays bounded', async (t) => {
    const first = await branchPage(base, 'limit=5', { upper: [tip] })
    // 256 other walks: one per maxheight, each a different key.
    const top = blocks.at(-1)!.height
    for (let offset = 1; offset <= 256; offset++) await branchPage(base, `limit=1&maxheight=${top + offset}`, { upper: [tip] })
    t.equal(server.branchContinuations(), 256, 'at most 256 walks are kept')
    t.same(await walk(base, 5, { upper: [tip] }), whole, 'a walk while the cache is full')
    const evicted = await branchPage(base, `limit=5&next=${first.next}`, { upper: [tip] })
    t.same(evicted.hashes, whole.slice(5, 10), "the evicted walk's cursor is answered by a re-walk")
  })
})

t.test('closing the node ends the walks it kept', async (t) => {
  const server = await startNode(t, { data: dir, network: 'test-singleton' })
  const base = `${server.url}/chain/0.0/test-singleton/chain/0`
  const tip = encodeHash(server.store.cut().get(0)!.hash)
  const first = await branchPage(base, 'limit=5', { upper: [tip] })
  await branchPage(base, 'limit=5&maxheight=100', { upper: [tip] })
  await branchPage(base, `limit=200&next=${first.next}`, { upper: [tip] })
  t.equal(server.branchContinuations(), 2)
  await server.close()
  t.equal(server.branchContinuations(), 0)
})

// Walks over the real store, watched through the iterator that wraps them: a finished walk has run its `finally`.
t.test('the cache', async (t) => {
  const server = await startNode(t, { data: dir, network: 'test-singleton' })
  const tip = server.store.cut().get(0)!.hash
  const ended: string[] = []
  async function suspended(name: string, maxheight?: number): Promise<SuspendedWalk> {
    async function* watched(): AsyncGenerator<HeaderRef, void, undefined> {
      try {
        yield* branch(server.store, { chain: 0, upper: [tip], lower: [], ...(maxheight === undefined ? {} : { maxheight }) })
      } finally {
        ended.push(name)
      }
    }
    const iterator = watched()
    const step = await iterator.next()
    if (step.done === true) throw new Error('Expected a block')
    return { iterator, following: step.value }
  }

  t.test('evicts the oldest walk past its size and ends it; a taken walk leaves the cache and goes on', async (t) => {
    ended.length = 0
    const cache = new BranchContinuations({ maxEntries: 2, ttlMs: 60_000 })
    cache.keep('a', await suspended('a'))
    cache.keep('b', await suspended('b', 200))
    cache.keep('c', await suspended('c', 100))
    await new Promise((resolve) => setImmediate(resolve))
    t.same(ended, ['a'])
    t.equal(cache.size, 2)
    t.equal(cache.take('a'), undefined)
    const b = cache.take('b')!
    t.equal(b.following.height, 200)
    t.equal(((await b.iterator.next()).value as HeaderRef).height, 199, 'the taken walk goes on where it stopped')
    t.equal(cache.take('b'), undefined, 'a walk is handed out once')
    cache.keep('c', await suspended('c2'))
    await cache.close()
    t.same(ended, ['a', 'c', 'c2'], 'a replaced walk is ended, and close ends the rest')
    cache.keep('d', await suspended('d'))
    await new Promise((resolve) => setImmediate(resolve))
    t.same(ended, ['a', 'c', 'c2', 'd'], 'a walk kept after close is ended at once')
    await b.iterator.return?.()
  })

  t.test('ends a walk nobody continues once its time is up, without a request to notice', async (t) => {
    ended.length = 0
    const cache = new BranchContinuations({ maxEntries: 10, ttlMs: 20 })
    // Both walks made first: on a busy machine making one took longer than the 20 ms they are kept.
    const [a, b] = [await suspended('a'), await suspended('b')]
    cache.keep('a', a)
    await until(() => ended.includes('a'), 'walk a ended once its time was up')
    cache.keep('b', b)
    t.same(ended, ['a'])
    t.equal(cache.take('a'), undefined)
    t.equal(cache.size, 1)
    await until(() => ended.includes('b'), 'walk b ended once its time was up')
    t.same(ended, ['a', 'b'])
    t.equal(cache.take('b'), undefined)
    const none = new BranchContinuations({ maxEntries: 0, ttlMs: 20 })
    none.keep('a', await suspended('z'))
    await none.close()
    t.same(ended, ['a', 'b', 'z'], 'a cache of size 0 keeps nothing')
  })
})
