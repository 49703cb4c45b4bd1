import { ascendingPage, resolveLimit } from '@weft/cursor'
import type { RangeItem } from '@weft/store'
import type { NodeContext } from '../node-context.js'
import type { PageQuery } from './page-query.js'
import { boundsAreEmpty, matchedPage, type StoredPage } from './stored-page.js'

/**
 * One page of a chain in ascending (height, hash) order, straight from the store's range. An unknown or
 * foreign cursor is the store's CURSOR_NOT_FOUND; no match is the profile's (404 or an empty page).
 */
export async function readAscendingPage(node: NodeContext, chain: number, query: PageQuery, cap: number): Promise<StoredPage<RangeItem>> {
  if (boundsAreEmpty(query)) return matchedPage(node, { items: [], next: null })
  const limit = resolveLimit(query.limit ?? cap, cap)
  const source = node.store.range({
    chain,
    ...(query.minheight === undefined ? {} : { minheight: query.minheight }),
    ...(query.maxheight === undefined ? {} : { maxheight: query.maxheight }),
    ...(query.cursor === undefined ? {} : { start: { hash: query.cursor.hash, inclusive: query.cursor.inclusive } }),
  })
  return matchedPage(node, await ascendingPage(source, { limit, hashOf: (item) => item.hash, end: node.rules.lastPageNext }))
}
