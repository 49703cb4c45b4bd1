import { formatCursor } from './cursor-text.js'
import { InvalidLimitError } from './errors.js'

/** The limit a page gets when the query names none, and its largest value (CONTRACT.md, GET block). */
export const DEFAULT_LIMIT = 360

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

/** The limit to serve: `cap` when none is asked for, at most `cap` otherwise (a larger limit is no error). */
export function resolveLimit(limit: number | undefined, cap: number = DEFAULT_LIMIT): number {
  checkCount('the limit cap', cap)
  if (limit === undefined) return cap
  checkCount('the limit', limit)
  return Math.min(limit, cap)
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

// Reads limit + 1 items at most: the extra one only tells whether more match and where they start.
// Leaving the loop early makes `for await` call the iterator's return(), which closes the source.
async function readPage<T>(source: AsyncIterable<T>, limit: number): Promise<{ items: T[]; following: T | undefined }> {
  checkCount('the limit', limit)
  const items: T[] = []
  for await (const item of source) {
    if (items.length === limit) return { items, following: item }
    items.push(item)
  }
  return { items, following: undefined }
}

function checkCount(what: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new InvalidLimitError(what, value)
}
