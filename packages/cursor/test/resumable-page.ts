import fc from 'fast-check'
import t from 'tap'
import { InvalidLimitError, readResumablePage } from '../src/index.js'

// An iterator over numbers that counts how it is consumed, so tests can see how far a page read it.
function countingIterator(values: readonly number[]): {
  iterator: AsyncIterator<number, void, undefined>
  stats: { nextCalls: number; returnCalls: number }
} {
  const stats = { nextCalls: 0, returnCalls: 0 }
  let index = 0
  const iterator: AsyncIterator<number, void, undefined> = {
    async next() {
      stats.nextCalls++
      if (index < values.length) return { value: values[index++] as number, done: false }
      return { value: undefined, done: true }
    },
    async return() {
      stats.returnCalls++
      index = values.length
      return { value: undefined, done: true }
    },
  }
  return { iterator, stats }
}

const range = (count: number): number[] => Array.from({ length: count }, (_, n) => n)

t.test('a page reads limit items and one more, and leaves the iterator open', async (t) => {
  const { iterator, stats } = countingIterator(range(10))
  const page = await readResumablePage(iterator, { limit: 4 })
  t.same(page, { items: [0, 1, 2, 3], following: 4 })
  t.equal(stats.nextCalls, 5)
  t.equal(stats.returnCalls, 0, 'the caller decides whether the walk goes on')
})

t.test('the next page continues the same walk from the item read past the page', async (t) => {
  const { iterator, stats } = countingIterator(range(10))
  const first = await readResumablePage(iterator, { limit: 4 })
  const second = await readResumablePage(iterator, { limit: 4, first: first.following })
  t.same(second, { items: [4, 5, 6, 7], following: 8 })
  const last = await readResumablePage(iterator, { limit: 4, first: second.following })
  t.same(last, { items: [8, 9], following: undefined }, 'the end of the walk has no following item')
  t.equal(stats.nextCalls, 11, 'every item was read once, and the end once')
})

t.test('skipFirst drops the first item only, whether it was read or handed in', async (t) => {
  const read = await readResumablePage(countingIterator([5, 6, 5, 7]).iterator, { limit: 2, skipFirst: (n) => n === 5 })
  t.same(read, { items: [6, 5], following: 7 }, 'a later equal item stays')
  const handed = await readResumablePage(countingIterator([6, 7]).iterator, { limit: 5, first: 5, skipFirst: (n) => n === 5 })
  t.same(handed, { items: [6, 7], following: undefined })
  const kept = await readResumablePage(countingIterator([6, 7]).iterator, { limit: 1, skipFirst: (n) => n === 5 })
  t.same(kept, { items: [6], following: 7 }, 'a first item that is not the one to skip is kept')
  const skippedOnly = await readResumablePage(countingIterator([5]).iterator, { limit: 1, skipFirst: () => true })
  t.same(skippedOnly, { items: [], following: undefined })
})

t.test('a page of limit 0 reads one item, which it hands back as the following one', async (t) => {
  const { iterator, stats } = countingIterator(range(3))
  t.same(await readResumablePage(iterator, { limit: 0 }), { items: [], following: 0 })
  t.equal(stats.nextCalls, 1)
  t.same(await readResumablePage(countingIterator([]).iterator, { limit: 0 }), { items: [], following: undefined })
  t.same(await readResumablePage(countingIterator([]).iterator, { limit: 0, first: 9 }), { items: [], following: 9 })
})

t.test('an invalid limit is refused before the iterator is read', async (t) => {
  for (const limit of [-1, 0.5, Number.NaN]) {
    const { iterator, stats } = countingIterator(range(3))
    await t.rejects(readResumablePage(iterator, { limit }), InvalidLimitError, `limit ${limit}`)
    t.equal(stats.nextCalls, 0)
  }
})

t.test('an error of the iterator reaches the caller', async (t) => {
  async function* failing(): AsyncGenerator<number, void, undefined> {
    yield 0
    throw new Error('disk on fire')
  }
  await t.rejects(readResumablePage(failing(), { limit: 5 }), { message: 'disk on fire' })
})

t.test('paging a walk with one iterator gives every item once, in order, reading each once', async (t) => {
  await fc.assert(
    // Limits of 0 included: such a page moves nothing on, and the walk must still give the same items after it.
    fc.asyncProperty(
      fc.nat({ max: 40 }),
      fc.array(fc.nat({ max: 12 }), { maxLength: 8 }),
      fc.integer({ min: 1, max: 12 }),
      async (count, some, moving) => {
        const limits = [...some, moving]
        const { iterator, stats } = countingIterator(range(count))
        const seen: number[] = []
        let following: number | undefined
        for (let index = 0; ; index++) {
          const limit = limits[index % limits.length] as number
          const page = await readResumablePage(iterator, { limit, first: following })
          if (page.items.length > limit) return false
          seen.push(...page.items)
          following = page.following
          if (following === undefined) break
          if (index > (count + 1) * limits.length) return false
        }
        return seen.length === count && seen.every((n, i) => n === i) && stats.nextCalls === count + 1 && stats.returnCalls === 0
      },
    ),
    { numRuns: 300, examples: [[5, [0], 2]] },
  )
  t.pass('every item once, in order')
})
