import { createHash } from 'node:crypto'
import fc from 'fast-check'
import t from 'tap'
import { ascendingPage, descendingPage, formatCursor, InvalidLimitError, parseCursor } from '../src/index.js'

interface Item {
  hash: Buffer
  n: number
}

const item = (n: number): Item => ({ hash: createHash('sha256').update(String(n)).digest(), n })
const hashOf = (i: Item): Buffer => i.hash
const items = (count: number): Item[] => Array.from({ length: count }, (_, n) => item(n))

// An async source that counts how it is consumed, so tests can see how far a page read it.
function countingSource<T>(values: readonly T[]): { source: AsyncIterable<T>; stats: { nextCalls: number; returnCalls: number } } {
  const stats = { nextCalls: 0, returnCalls: 0 }
  const source: AsyncIterable<T> = {
    [Symbol.asyncIterator]() {
      let index = 0
      return {
        async next(): Promise<IteratorResult<T>> {
          stats.nextCalls++
          if (index < values.length) return { value: values[index++] as T, done: false }
          return { value: undefined, done: true }
        },
        async return(): Promise<IteratorResult<T>> {
          stats.returnCalls++
          index = values.length
          return { value: undefined, done: true }
        },
      }
    },
  }
  return { source, stats }
}

// The items of `list` from a cursor on, as a store serving GET block or a branch would give them.
function fromCursor(list: readonly Item[], next: string | null): Item[] {
  if (next === null) return [...list]
  const cursor = parseCursor(next)
  const index = list.findIndex((i) => i.hash.equals(cursor.hash))
  if (index < 0) throw new Error('cursor names no item')
  return list.slice(cursor.inclusive ? index : index + 1)
}

t.test('an ascending page reads exactly limit + 1 items and closes the source', async (t) => {
  const list = items(10)
  const { source, stats } = countingSource(list)
  const page = await ascendingPage(source, { limit: 4, hashOf, end: 'null' })
  t.same(page.items, list.slice(0, 4))
  t.equal(page.limit, 4)
  t.equal(page.next, formatCursor({ inclusive: true, hash: list[4]!.hash }), 'next names the first item not returned')
  t.equal(stats.nextCalls, 5)
  t.equal(stats.returnCalls, 1)
})

t.test('a page stops reading an endless source after limit + 1 items and runs its cleanup', async (t) => {
  let produced = 0
  let closed = false
  async function* endless(): AsyncGenerator<Item> {
    try {
      for (;;) yield item(produced++)
    } finally {
      closed = true
    }
  }
  const page = await descendingPage(endless(), { limit: 3, hashOf })
  t.equal(page.items.length, 3)
  t.equal(produced, 4)
  t.ok(closed)
  t.equal(page.next, `inclusive:${item(3).hash.toString('base64url')}`)
})

t.test('an ascending page that reaches the end has next null in the null mode', async (t) => {
  const list = items(3)
  for (const limit of [3, 4, 360]) {
    const { source, stats } = countingSource(list)
    const page = await ascendingPage(source, { limit, hashOf, end: 'null' })
    t.same(page, { limit: 3, items: list, next: null }, `limit ${limit}`)
    t.equal(stats.nextCalls, 4, 'the source was read to its end once')
  }
})

t.test('an ascending page that reaches the end names its last item exclusively in the exclusive-last mode', async (t) => {
  const list = items(3)
  const page = await ascendingPage(countingSource(list).source, { limit: 3, hashOf, end: 'exclusive-last' })
  t.equal(page.next, `exclusive:${list[2]!.hash.toString('base64url')}`)
  const more = await ascendingPage(countingSource(list).source, { limit: 2, hashOf, end: 'exclusive-last' })
  t.equal(more.next, `inclusive:${list[2]!.hash.toString('base64url')}`, 'while more match the cursor is inclusive in both modes')
})

t.test('an empty ascending page has next null in both modes', async (t) => {
  for (const end of ['null', 'exclusive-last'] as const) {
    const page = await ascendingPage(countingSource<Item>([]).source, { limit: 5, hashOf, end })
    t.same(page, { limit: 0, items: [], next: null }, end)
  }
})

t.test('a page of limit 0 returns no item and points at the first one when any matches', async (t) => {
  const list = items(2)
  const { source, stats } = countingSource(list)
  const page = await descendingPage(source, { limit: 0, hashOf })
  t.same(page, { limit: 0, items: [], next: `inclusive:${list[0]!.hash.toString('base64url')}` })
  t.equal(stats.nextCalls, 1)
  t.equal(stats.returnCalls, 1)
  t.same(await ascendingPage(countingSource<Item>([]).source, { limit: 0, hashOf, end: 'exclusive-last' }), {
    limit: 0,
    items: [],
    next: null,
  })
})

t.test('a descending page ends with next null', async (t) => {
  const list = items(2)
  t.same(await descendingPage(countingSource(list).source, { limit: 2, hashOf }), { limit: 2, items: list, next: null })
  t.same(await descendingPage(countingSource<Item>([]).source, { limit: 2, hashOf }), { limit: 0, items: [], next: null })
})

t.test('a page with an invalid limit fails before reading the source', async (t) => {
  for (const limit of [-1, 0.5]) {
    const { source, stats } = countingSource(items(3))
    await t.rejects(ascendingPage(source, { limit, hashOf, end: 'null' }), { code: 'INVALID_LIMIT' })
    await t.rejects(descendingPage(source, { limit, hashOf }), InvalidLimitError)
    t.equal(stats.nextCalls, 0)
  }
})

t.test('an error of the source reaches the caller', async (t) => {
  async function* failing(): AsyncGenerator<Item> {
    yield item(0)
    throw new Error('disk on fire')
  }
  await t.rejects(descendingPage(failing(), { limit: 5, hashOf }), { message: 'disk on fire' })
})

t.test('following next page after page gives every item once, in order, whatever the limit and end mode', async (t) => {
  await fc.assert(
    fc.asyncProperty(
      fc.nat({ max: 40 }),
      fc.integer({ min: 1, max: 12 }),
      fc.constantFrom('null', 'exclusive-last', 'descending'),
      async (count, limit, mode) => {
        const list = items(count)
        const seen: Item[] = []
        let next: string | null = null
        let pages = 0
        do {
          const { source, stats } = countingSource(fromCursor(list, next))
          const page: { limit: number; items: Item[]; next: string | null } =
            mode === 'descending'
              ? await descendingPage(source, { limit, hashOf })
              : await ascendingPage(source, { limit, hashOf, end: mode })
          if (stats.nextCalls > limit + 1) return false
          if (page.limit !== page.items.length || page.items.length > limit) return false
          // a source left unfinished is closed exactly once; one read to its end is not closed again
          if (stats.returnCalls !== (stats.nextCalls === limit + 1 && page.next?.startsWith('inclusive:') ? 1 : 0)) return false
          seen.push(...page.items)
          next = page.next
          if (++pages > count + 2) return false
        } while (next !== null)
        return seen.length === list.length && seen.every((i, index) => i === list[index])
      },
    ),
    { numRuns: 300 },
  )
  t.pass('paging reproduces the whole list')
})
