import t from 'tap'
import { emptyPage, followingCursor, followPages, InvalidResponseError, isNoMatch, type PageLike, WeftHttpError } from '../src/index.js'

const page = (items: number, next: string | null): PageLike => ({ items: Array.from({ length: items }, (_, i) => i), next })

t.test('more follows a page whose next is inclusive; null and exclusive end the walk', async (t) => {
  t.equal(followingCursor(page(2, 'inclusive:b')), 'inclusive:b')
  t.equal(followingCursor(page(2, null)), undefined, "the spec profile's last page")
  t.equal(followingCursor(page(2, 'exclusive:a')), undefined, "chainweb's last page of GET block")
  t.equal(followingCursor(page(0, null)), undefined, 'the empty page of no match')
  t.equal(followingCursor(page(0, 'inclusive:b')), 'inclusive:b', 'an empty page that names more is followed (it breaks the contract)')
})

t.test('pages are followed by their cursors from the start given', async (t) => {
  const cursors: Array<string | undefined> = []
  const pages = [page(2, 'inclusive:c'), page(2, 'inclusive:e'), page(1, 'exclusive:e')]
  const seen: PageLike[] = []
  for await (const p of followPages(async (next) => {
    cursors.push(next)
    return pages[cursors.length - 1]!
  }, 'inclusive:a'))
    seen.push(p)
  t.same(seen, pages)
  t.same(cursors, ['inclusive:a', 'inclusive:c', 'inclusive:e'])
  const first: Array<string | undefined> = []
  const walked: PageLike[] = []
  for await (const p of followPages(async (next) => {
    first.push(next)
    return page(0, null)
  }))
    walked.push(p)
  t.same(first, [undefined], 'without a start, the first page is read without a cursor')
  t.same(walked, [page(0, null)])
})

t.test('a page that gives back the cursor it was read with ends the walk with an invalid response', async (t) => {
  const walk = followPages(async (next) => page(1, next ?? 'inclusive:a'))
  t.ok(await walk.next())
  t.ok(await walk.next())
  await t.rejects(walk.next(), {
    code: 'INVALID_RESPONSE',
    message: 'Expected the page read with inclusive:a to give another cursor, received the same one',
  })
  t.type(new InvalidResponseError('x', 'y'), InvalidResponseError)
})

t.test("the spec profile's 404 for no match is the empty page chainweb answers", async (t) => {
  t.same(emptyPage(), { limit: 0, items: [], next: null })
  t.ok(isNoMatch(new WeftHttpError(404, { code: 'NO_MATCHING_BLOCKS' }, 'u')))
  t.notOk(isNoMatch(new WeftHttpError(404, { code: 'CURSOR_NOT_FOUND' }, 'u')))
  t.notOk(isNoMatch(new Error('NO_MATCHING_BLOCKS')))
})
