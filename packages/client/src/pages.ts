import {
  type AnyBlockPage,
  type AnyFullBlock,
  type BranchBounds,
  followPages,
  type PageQuery,
  readBlockPage,
  readBranchPage,
} from '@weft/api'
import type { Connection } from './connection.js'
import { InvalidOptionError } from './errors.js'

/** One page of GET block on `chain`; a query that matches nothing is an empty page in both profiles. */
export async function blockPage(connection: Connection, chain: number, query: PageQuery = {}): Promise<AnyBlockPage> {
  return readBlockPage(connection.transport.send, await connection.chain(), chain, query, await connection.readOptions())
}

/** One page of POST branch on `chain`; a query that matches nothing is an empty page in both profiles. */
export async function branchPage(
  connection: Connection,
  chain: number,
  bounds: BranchBounds,
  query: PageQuery = {},
): Promise<AnyBlockPage> {
  return readBranchPage(connection.transport.send, await connection.chain(), chain, bounds, query, await connection.readOptions())
}

/** Every page from `query.next` on, each asked with the cursor of the one before, until the last (`@weft/api`'s `followPages`). */
export async function* pagesFrom(
  fetchPage: (next: string | undefined) => Promise<AnyBlockPage>,
  query: PageQuery,
): AsyncGenerator<AnyBlockPage> {
  // A page of 0 blocks is empty, which ends the walk at once: the caller would see no block and no error.
  if (query.limit !== undefined && !(Number.isSafeInteger(query.limit) && query.limit >= 1))
    throw new InvalidOptionError('limit', 'a positive integer (the page size)', query.limit)
  yield* followPages(fetchPage, query.next ?? undefined)
}

/** The items of every page, in page order. */
export async function* pageItems(pages: AsyncIterable<AnyBlockPage>): AsyncGenerator<AnyFullBlock> {
  for await (const page of pages) yield* page.items
}
