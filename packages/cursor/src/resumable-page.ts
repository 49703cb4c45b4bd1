import { checkCount } from './limit.js'

/** Options of `readResumablePage`. */
export interface ResumablePageOptions<T> {
  /** Most items the page returns: a non-negative safe integer. */
  readonly limit: number
  /** An item already taken from the iterator (the `following` of the page before): the page starts with it. */
  readonly first?: T | undefined
  /**
   * Whether to drop the page's first item (whether `first` or read): an `exclusive:` cursor's own block,
   * which a walk started at the cursor yields first when it is there at all. Later items are not asked about.
   */
  readonly skipFirst?: ((item: T) => boolean) | undefined
}

/** One page read from an iterator that is left open for the next page. */
export interface ResumablePage<T> {
  /** At most `limit` items, in the iterator's order. */
  readonly items: T[]
  /**
   * The one item read past the page, when the iterator had one: the iterator is then still open, and the
   * next page continues the same walk with `{ first: following }`, or the caller ends it with `return()`.
   * Undefined once the iterator is done (there is nothing to close).
   */
  readonly following: T | undefined
}

/**
 * Reads `limit` items of a walk and one more, which only tells whether more follow and where the next
 * page starts. Unlike `ascendingPage` and `descendingPage`, it never closes the iterator: a caller that
 * keeps the iterator and `following` continues the walk where this page stopped instead of starting a
 * new one at the next page's cursor. An iterator must not yield `undefined`; its errors reach the caller.
 */
export async function readResumablePage<T>(
  iterator: AsyncIterator<T, unknown, undefined>,
  options: ResumablePageOptions<T>,
): Promise<ResumablePage<T>> {
  const { limit, skipFirst } = options
  checkCount('the limit', limit)
  const items: T[] = []
  let pending = options.first
  let atFirst = true
  for (;;) {
    let item: T
    if (pending !== undefined) {
      item = pending
      pending = undefined
    } else {
      const step = await iterator.next()
      if (step.done === true) return { items, following: undefined }
      item = step.value
    }
    if (atFirst) {
      atFirst = false
      if (skipFirst?.(item) === true) continue
    }
    if (items.length === limit) return { items, following: item }
    items.push(item)
  }
}
