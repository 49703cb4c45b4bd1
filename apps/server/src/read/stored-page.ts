import type { ChainStore } from '@weft/store'
import { NoMatchingBlocksError } from '../errors.js'
import type { ProfileRules } from '../profile/profiles.js'
import type { PageQuery } from './page-query.js'

/** What a chain read touches: the store it reads and the profile's rules (no match, the last page's `next`, a branch's `maxheight`). */
export interface ChainReads {
  readonly store: ChainStore
  readonly rules: ProfileRules
}

/** A page of stored things before rendering: its items and the `next` cursor. */
export interface StoredPage<T> {
  readonly items: T[]
  readonly next: string | null
}

/** Whether the query's height bounds exclude everything (maxheight below minheight). */
export function boundsAreEmpty(query: PageQuery): boolean {
  return query.maxheight !== undefined && query.minheight !== undefined && query.maxheight < query.minheight
}

/** The page, unless it says that nothing matches and the profile answers that with a 404 (NO_MATCHING_BLOCKS). */
export function matchedPage<T>(rules: ProfileRules, page: StoredPage<T>): StoredPage<T> {
  if (page.items.length === 0 && page.next === null && rules.noMatch === 'problem-404') throw new NoMatchingBlocksError()
  return page
}

/**
 * The highest height an ascending page's answer depends on, undefined when unbounded. A page its limit
 * cut short ends before the following block, which lies at most one height above the last item (a
 * chain holds a block at every height from its genesis up); a last page depends on every height up to
 * `maxheight`.
 */
export function ascendingPageBound(page: StoredPage<{ readonly height: number }>, query: PageQuery): number | undefined {
  const last = page.items.at(-1)
  if (last !== undefined && page.next?.startsWith('inclusive:') === true) return last.height + 1
  return query.maxheight
}
