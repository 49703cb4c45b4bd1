import { InvalidResponseError, WeftHttpError } from './errors.js'

/** What page following reads of a page: its items and its `next` cursor. */
export interface PageLike {
  readonly items: readonly unknown[]
  readonly next: string | null
}

/** The page a query matching nothing is, in both profiles (the chainweb profile answers it; the spec profile's 404 becomes it). */
export function emptyPage(): { limit: 0; items: never[]; next: null } {
  return { limit: 0, items: [], next: null }
}

/**
 * Whether `error` is the spec profile's answer to a query that matches no block (404
 * `NO_MATCHING_BLOCKS`), which is not a failure: an empty page, as the chainweb profile answers it.
 */
export function isNoMatch(error: unknown): boolean {
  return error instanceof WeftHttpError && error.serverCode === 'NO_MATCHING_BLOCKS'
}

/**
 * The cursor of the page after `page`, or undefined when `page` is the last. More follows a page
 * whose `next` is `inclusive:<first block not returned>`; the last page's is `null` (spec profile)
 * or, on GET block in the chainweb profile, `exclusive:<its last block>`, whose page would be empty
 * (until blocks are added: a caller that polls may keep it). An empty page with an `inclusive:` cursor
 * breaks the contract (while more match, a page has blocks): its cursor is followed, and a walk that
 * goes round is caught by whoever follows it.
 */
export function followingCursor(page: PageLike): string | undefined {
  return page.next?.startsWith('inclusive:') === true ? page.next : undefined
}

/**
 * Every page from the one `readPage(start)` gives on, each next one read with the cursor of the one
 * before (`followingCursor`), until the last. A page that gives the cursor it was read with would be
 * read for ever: it is an `InvalidResponseError`. (Longer loops are not looked for: remembering every
 * cursor of a long walk would cost memory without bound.)
 */
export async function* followPages<P extends PageLike>(
  readPage: (next: string | undefined) => Promise<P>,
  start?: string,
): AsyncGenerator<P> {
  let cursor = start
  for (;;) {
    const page = await readPage(cursor)
    yield page
    const next = followingCursor(page)
    if (next === undefined) return
    if (next === cursor) throw new InvalidResponseError(`the page read with ${next} to give another cursor`, 'the same one')
    cursor = next
  }
}
