import type { IndexPage, PageOptions } from '@weft/store'
import { InvalidQueryError } from '../errors.js'

/** chainweb-data's result limit: 10 by default, at most 250. */
export const DATA_LIMIT_DEFAULT = 10
export const DATA_LIMIT_MAX = 250
/** The largest `offset` chainweb-data takes (its account search: "the maximum allowed offset is 10,000"). */
export const DATA_OFFSET_MAX = 10_000
/** Store pages read at most per request to fill a page whose entries the filters mostly reject. */
const READS_PER_PAGE = 8

/** The paging query of a chainweb-data route: `limit`, `offset`, `next`, `minheight`, `maxheight`. */
export interface DataPaging {
  readonly limit: number
  readonly offset: number
  readonly next?: string
  readonly minheight?: number
  readonly maxheight?: number
}

type Query = Readonly<Record<string, string | string[] | undefined>>

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value)

/** A query parameter that must be a non-negative integer (servant's message form); undefined when absent. */
export function naturalParam(query: Query, name: string): number | undefined {
  const text = first(query[name])
  if (text === undefined) return undefined
  if (!/^[0-9]{1,15}$/.test(text))
    throw new InvalidQueryError(
      `Error parsing query parameter ${name} failed: expected a non-negative integer, received ${JSON.stringify(text.slice(0, 64))}`,
    )
  return Number(text)
}

/** Reads the paging parameters as chainweb-data does: `next` excludes `offset`; `limit` is capped at 250, `offset` refused past 10,000. */
export function parseDataPaging(query: Query): DataPaging {
  const next = first(query.next)
  const offset = naturalParam(query, 'offset')
  if (next !== undefined && offset !== undefined) throw new InvalidQueryError('next token query parameter not allowed with offset')
  if (offset !== undefined && offset > DATA_OFFSET_MAX)
    throw new InvalidQueryError(`the maximum allowed offset is 10,000. You requested ${offset}`)
  const minheight = naturalParam(query, 'minheight')
  const maxheight = naturalParam(query, 'maxheight')
  return {
    limit: Math.min(naturalParam(query, 'limit') ?? DATA_LIMIT_DEFAULT, DATA_LIMIT_MAX),
    offset: offset ?? 0,
    ...(next === undefined ? {} : { next }),
    ...(minheight === undefined ? {} : { minheight }),
    ...(maxheight === undefined ? {} : { maxheight }),
  }
}

/** One answer: its items, the `Chainweb-Next` token (a keyset cursor of the index), and the height below which the index is not complete yet. */
export interface DataPage<T> {
  readonly items: T[]
  readonly next: string | undefined
  readonly incompleteBelow?: number
}

/**
 * A page of an index query in chainweb-data's terms: `offset` items skipped (read and dropped,
 * newest first), then up to `limit`, winning branch only. The token continues just after the last
 * entry read: new blocks sort before it, so following it never skips or repeats an item.
 */
export async function readDataPage<T>(
  read: (options: PageOptions) => Promise<IndexPage<T>>,
  paging: DataPaging,
  filters: PageOptions = {},
): Promise<DataPage<T>> {
  const bounds = {
    ...filters,
    canonicalOnly: true,
    ...(paging.minheight === undefined ? {} : { minheight: paging.minheight }),
    ...(paging.maxheight === undefined ? {} : { maxheight: paging.maxheight }),
  }
  let next = paging.next
  let skip = paging.offset
  const items: T[] = []
  for (let reads = 0; items.length < paging.limit; reads += 1) {
    const wanted = skip > 0 ? Math.min(skip, 1000) : paging.limit - items.length
    const page = await read({ ...bounds, limit: wanted, ...(next === undefined ? {} : { next }) })
    if (skip > 0) skip -= page.items.length
    else items.push(...page.items)
    next = page.next
    if (page.incompleteBelow !== undefined) return { items, next, incompleteBelow: page.incompleteBelow }
    if (next === undefined || (skip === 0 && reads >= READS_PER_PAGE)) break
  }
  return { items, next }
}
