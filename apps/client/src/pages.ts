import { BlockPage, ChainwebBlockPage } from '@weft/types'
import type { Connection } from './connection.js'
import { InvalidOptionError, WeftHttpError } from './errors.js'
import type { AnyBlockPage, AnyFullBlock, BranchBounds, PageQuery } from './types.js'

/** One page of GET block on `chain`. */
export async function blockPage(connection: Connection, chain: number, query: PageQuery = {}): Promise<AnyBlockPage> {
  return readPage(connection, 'GET', `${await connection.base()}/chain/${chain}/block${queryString(query)}`)
}

/** One page of POST branch on `chain`. */
export async function branchPage(
  connection: Connection,
  chain: number,
  bounds: BranchBounds,
  query: PageQuery = {},
): Promise<AnyBlockPage> {
  const body = { lower: bounds.lower ?? [], upper: bounds.upper ?? [] }
  return readPage(connection, 'POST', `${await connection.base()}/chain/${chain}/block/branch${queryString(query)}`, body)
}

/** Every page from `query.next` on, each asked with the cursor of the one before, until a page ends the walk. */
export async function* followPages(
  fetchPage: (next: string | null) => Promise<AnyBlockPage>,
  query: PageQuery,
): AsyncGenerator<AnyBlockPage> {
  // A page of 0 blocks is empty, which ends the walk at once: the caller would see no block and no error.
  if (query.limit !== undefined && !(Number.isSafeInteger(query.limit) && query.limit >= 1))
    throw new InvalidOptionError('limit', 'a positive integer (the page size)', query.limit)
  let next = query.next ?? null
  for (;;) {
    const page = await fetchPage(next)
    yield page
    // chainweb ends the last non-empty page with `exclusive:<last>`, whose follow-up page is empty.
    if (page.next === null || page.items.length === 0) return
    next = page.next
  }
}

/** The items of every page, in page order. */
export async function* pageItems(pages: AsyncIterable<AnyBlockPage>): AsyncGenerator<AnyFullBlock> {
  for await (const page of pages) yield* page.items
}

/** Renders a page query as a URL query string (empty when there is nothing to send). */
export function queryString(query: PageQuery): string {
  const parameters = new URLSearchParams()
  if (query.limit !== undefined) parameters.set('limit', String(query.limit))
  if (query.next !== undefined && query.next !== null) parameters.set('next', query.next)
  if (query.minheight !== undefined) parameters.set('minheight', String(query.minheight))
  if (query.maxheight !== undefined) parameters.set('maxheight', String(query.maxheight))
  const text = parameters.toString()
  return text === '' ? '' : `?${text}`
}

async function readPage(connection: Connection, method: 'GET' | 'POST', url: string, body?: unknown): Promise<AnyBlockPage> {
  try {
    const answer = await connection.send(method, url, body === undefined ? {} : { body })
    const schema = (await connection.target()).profile === 'chainweb' ? ChainwebBlockPage : BlockPage
    return connection.checkExact<AnyBlockPage>(schema, await answer.bytes(), `${method} ${url}`)
  } catch (error) {
    // The spec profile answers a query that matches nothing with 404 NO_MATCHING_BLOCKS; chainweb with an empty page.
    if (error instanceof WeftHttpError && error.serverCode === 'NO_MATCHING_BLOCKS') return { limit: 0, items: [], next: null }
    throw error
  }
}
