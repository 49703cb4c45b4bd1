import { ascendingPage, resolveLimit } from '@weft/cursor'
import type { RangeItem } from '@weft/store'
import type { PageQuery } from './page-query.js'
import { boundsAreEmpty, type ChainReads, matchedPage, type StoredPage } from './stored-page.js'

/**
 * One page of a chain in ascending (height, hash) order, straight from the store's range. An unknown or
 * foreign cursor is the store's CURSOR_NOT_FOUND; no match is the profile's (404 or an empty page).
 */
export async function readAscendingPage(reads: ChainReads, chain: number, query: PageQuery, cap: number): Promise<StoredPage<RangeItem>> {
  if (boundsAreEmpty(query)) return matchedPage(reads.rules, { items: [], next: null })
  const limit = resolveLimit(query.limit ?? cap, cap)
  const source = reads.store.range({
    chain,
    ...(query.minheight === undefined ? {} : { minheight: query.minheight }),
    ...(query.maxheight === undefined ? {} : { maxheight: query.maxheight }),
    ...(query.cursor === undefined ? {} : { start: { hash: query.cursor.hash, inclusive: query.cursor.inclusive } }),
  })
  return matchedPage(reads.rules, await ascendingPage(source, { limit, hashOf: (item) => item.hash, end: reads.rules.lastPageNext }))
}
