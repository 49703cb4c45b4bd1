import type Router from '@koa/router'
import type { RouterContext } from '@koa/router'
import { InvalidCursorError } from '@weft/cursor'
import type { IndexPage, PageOptions, TransactionIndex } from '@weft/store'
import { IndexCatchingUpError, InvalidHashParameterError, InvalidQueryError, TxNotFoundError } from '../errors.js'
import { negotiate } from '../http/negotiation.js'
import { writeJson, writePage } from '../http/responses.js'
import { isFullRequestKey } from '../pact/pact-requests.js'
import { eventItem, transactionBody, transferItem } from '../read/index-bodies.js'
import { parseIndexFilter } from '../streams/index-streams.js'

/** What the spec profile's index resources touch: the transaction index and the network's chain ids. */
export interface IndexRouteParts {
  readonly index: TransactionIndex
  readonly chains: ReadonlySet<number>
}

/** Items a page answers by default; at most the store's 1000. */
export const INDEX_PAGE_DEFAULT = 100

type Query = RouterContext['query']

const cursorPattern = /^inclusive:([A-Za-z0-9_-]{1,1024})$/

function natural(query: Query, name: string, minimum = 0): number | undefined {
  const value = query[name]
  if (value === undefined) return undefined
  if (typeof value !== 'string' || !/^[0-9]{1,15}$/.test(value) || Number(value) < minimum)
    throw new InvalidQueryError(
      `Expected query parameter ${name} once, an integer from ${minimum}, received ${JSON.stringify(value).slice(0, 80)}`,
    )
  return Number(value)
}

/**
 * The paging of an index page: `limit` (default 100, capped at 1000), `next` (`inclusive:` and the
 * index's token: where the next page starts), `minheight`, `maxheight`, `chain` and `canonical=true`
 * (winning branch only; orphaned copies are answered too, marked, without it).
 */
function pageOptions(query: Query, chains: ReadonlySet<number>): PageOptions {
  const next = query.next
  let token: string | undefined
  if (next !== undefined) {
    const match = typeof next === 'string' ? cursorPattern.exec(next) : null
    if (match === null)
      throw new InvalidCursorError(
        `Expected next to be a cursor of a previous page (inclusive: and a token), received ${JSON.stringify(next).slice(0, 80)}`,
      )
    token = match[1]
  }
  const chain = chainOf(query, chains)
  const canonical = query.canonical
  if (canonical !== undefined && canonical !== 'true' && canonical !== 'false')
    throw new InvalidQueryError(
      `Expected query parameter canonical to be true or false, received ${JSON.stringify(canonical).slice(0, 80)}`,
    )
  const options: Record<string, unknown> = {
    limit: Math.min(natural(query, 'limit', 1) ?? INDEX_PAGE_DEFAULT, 1000),
    next: token,
    minheight: natural(query, 'minheight'),
    maxheight: natural(query, 'maxheight'),
    chain,
    canonicalOnly: canonical === 'true' ? true : undefined,
  }
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as PageOptions
}

// A page the index could not fill because it is still catching up below: the items it has, and a
// `next` that goes on from there later; with no item at all, INDEX_CATCHING_UP (Retry-After), so that a
// client following pages never takes a page cut short for the end.
function writeIndexPage<T>(
  ctx: RouterContext,
  index: TransactionIndex,
  page: IndexPage<T>,
  item: (value: T) => Buffer,
  what: string,
): void {
  if (page.incompleteBelow !== undefined && page.items.length === 0) {
    const status = index.status()
    throw new IndexCatchingUpError(what, status.state === 'catching-up' ? status.progress : 0)
  }
  writePage(ctx, page.items.map(item), page.next === undefined ? null : `inclusive:${page.next}`)
}

/**
 * The spec profile's transactions, events and transfers, from the store's transaction index, under
 * brand-neutral names beside their filtered streams (`.../updates`): one transaction's every copy, and
 * pages of events or of an account's transfers, newest first, with `next: "inclusive:..."` cursors.
 * Every copy says whether its block is on the winning branch (`canonical`) and its `depth`.
 */
export function registerIndexRoutes(router: Router, parts: IndexRouteParts, base: string): void {
  const { index, chains } = parts

  router.get(`${base}/transaction/:requestKey`, async (ctx) => {
    negotiate(ctx.get('accept') || undefined)
    const key = ctx.params.requestKey ?? ''
    if (!isFullRequestKey(key)) throw new InvalidHashParameterError(key)
    const chain = chainOf(ctx.query, chains)
    const lookup = await index.transaction(key, chain === undefined ? {} : { chain })
    if (lookup.copies.length === 0) {
      if (!lookup.complete) {
        const status = index.status()
        throw new IndexCatchingUpError(`request key ${key}`, status.state === 'catching-up' ? status.progress : 0)
      }
      throw new TxNotFoundError(`Expected a stored transaction with request key ${key}, found none`)
    }
    writeJson(ctx, transactionBody(key, lookup))
  })

  router.get(`${base}/event`, async (ctx) => {
    negotiate(ctx.get('accept') || undefined)
    const filter = parseIndexFilter('event', ctx.query) as { name: string | undefined; module: string | undefined }
    const options = pageOptions(ctx.query, chains)
    const query = filter.name === undefined ? { module: filter.module as string } : qualified(filter.name)
    writeIndexPage(ctx, index, await index.events({ ...query, ...options }), eventItem, 'a page of events')
  })

  router.get(`${base}/transfer`, async (ctx) => {
    negotiate(ctx.get('accept') || undefined)
    const filter = parseIndexFilter('transfer', ctx.query) as { account: string; token: string | undefined }
    const options = pageOptions(ctx.query, chains)
    const page = await index.transfers({ account: filter.account, token: filter.token ?? 'coin', ...options })
    writeIndexPage(ctx, index, page, transferItem, 'a page of transfers')
  })
}

// `chain`: only this chain's copies; a chain the network lacks is INVALID_QUERY.
function chainOf(query: Query, chains: ReadonlySet<number>): number | undefined {
  const chain = natural(query, 'chain')
  if (chain !== undefined && !chains.has(chain))
    throw new InvalidQueryError(`Expected chain to be a chain of the network, received ${chain}`)
  return chain
}

// `coin.TRANSFER`, `free.crankk01.CRANK`: the module is everything before the last dot.
function qualified(name: string): { module: string; name: string } {
  const dot = name.lastIndexOf('.')
  if (dot <= 0 || dot === name.length - 1)
    throw new InvalidQueryError(`Expected name to be a qualified event name (coin.TRANSFER), received ${JSON.stringify(name).slice(0, 80)}`)
  return { module: name.slice(0, dot), name: name.slice(dot + 1) }
}
