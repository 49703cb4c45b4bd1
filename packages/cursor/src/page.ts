import { formatCursor } from './cursor-text.js'
import { checkCount } from './limit.js'
import { readResumablePage } from './resumable-page.js'

/** A page of items and the cursor to the rest: `limit` is the number of items returned. */
export interface Page<T> {
  limit: number
  items: T[]
  next: string | null
}

/** Options of `ascendingPage`: `end` says what `next` is once nothing more matches. */
export interface AscendingPageOptions<T> {
  limit: number
  hashOf(item: T): Uint8Array
  /** `'null'`: `next` is null at the end; `'exclusive-last'`: `exclusive:<hash of last item>` on a non-empty last page. */
  end: 'null' | 'exclusive-last'
}

/** Options of `descendingPage`. */
export interface DescendingPageOptions<T> {
  limit: number
  hashOf(item: T): Uint8Array
}

/**
 * Reads one page of an ascending source (GET block rules): `next` is `inclusive:<hash>` of the first
 * item not returned while more match; at the end it depends on `end`.
 */
export async function ascendingPage<T>(source: AsyncIterable<T>, options: AscendingPageOptions<T>): Promise<Page<T>> {
  const { items, following } = await readPage(source, options.limit)
  let next: string | null = null
  if (following !== undefined) next = formatCursor({ inclusive: true, hash: options.hashOf(following) })
  else if (options.end === 'exclusive-last' && items.length > 0) {
    next = formatCursor({ inclusive: false, hash: options.hashOf(items[items.length - 1] as T) })
  }
  return { limit: items.length, items, next }
}

/** Reads one page of a descending source (branch rules): `next` is `inclusive:<hash>` of the first item not returned, or null. */
export async function descendingPage<T>(source: AsyncIterable<T>, options: DescendingPageOptions<T>): Promise<Page<T>> {
  const { items, following } = await readPage(source, options.limit)
  const next = following === undefined ? null : formatCursor({ inclusive: true, hash: options.hashOf(following) })
  return { limit: items.length, items, next }
}

// A page that is not resumed: the source is closed once the page is read, as leaving a `for await` early
// would close it (an async generator's `finally` blocks run then). One read to its end needs no closing.
async function readPage<T>(source: AsyncIterable<T>, limit: number): Promise<{ items: T[]; following: T | undefined }> {
  checkCount('the limit', limit)
  const iterator = source[Symbol.asyncIterator]()
  const page = await readResumablePage(iterator, { limit })
  if (page.following !== undefined) await iterator.return?.()
  return page
}
