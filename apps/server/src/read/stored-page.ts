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
