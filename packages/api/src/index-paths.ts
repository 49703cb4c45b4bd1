// The spec profile's transaction index resources, as a client sees them: their paths and the JSON they answer.

/** Events by qualified name (`coin.TRANSFER`) or by module (`coin`): exactly one of the two. */
export interface EventFilter {
  readonly name?: string | undefined
  readonly module?: string | undefined
}

/** Paging and filters of an index page: `next` is the `inclusive:` cursor of the page before. */
export interface IndexPageQuery {
  limit?: number | undefined
  next?: string | null | undefined
  minheight?: number | undefined
  maxheight?: number | undefined
  chain?: number | undefined
  /** Only copies on the winning branch (the node answers orphaned copies too, marked, without it). */
  canonical?: boolean | undefined
}

/** Where a copy lies and where its block stands: on the winning branch or not, and its depth below its chain's head. */
export interface IndexedPlace {
  requestKey: string
  chain: number
  height: number
  blockHash: string
  /** The transaction's index in the payload; -1 for the coinbase. */
  position: number
  canonical: boolean
  depth: number
}

/** One event of `{base}/event`. */
export interface IndexedEvent extends IndexedPlace {
  index: number
  module: string
  name: string
  params: unknown[]
  moduleHash: string | null
}

/** One transfer of `{base}/transfer`: `amount` is exact decimal text. */
export interface IndexedTransfer extends IndexedPlace {
  index: number
  token: string
  sender: string
  receiver: string
  amount: string
  pactId: string | null
  crossChain: { chain: string; account: string } | null
}

/** `{base}/transaction/{requestKey}`: every stored copy, canonical first, then newest first. */
export interface TransactionCopies {
  requestKey: string
  /** False while the node's index catches up: a copy may be missing. */
  complete: boolean
  copies: Array<IndexedPlace & { command: unknown; result: unknown }>
}

/** A page of an index resource, newest first; it may be short (even empty) and still have a `next`. */
export interface IndexPage<T> {
  limit: number
  items: T[]
  next: string | null
}

/** The data of one `event:Event` of `{base}/event/updates`. */
export interface EventUpdate {
  requestKey: string
  chain: number
  height: number
  blockHash: string
  position: number
  index: number
  module: string
  name: string
  params: unknown[]
}

function queryString(entries: ReadonlyArray<[string, string | number | boolean | null | undefined]>): string {
  const parameters = new URLSearchParams()
  for (const [key, value] of entries) if (value !== undefined && value !== null) parameters.set(key, String(value))
  const text = parameters.toString()
  return text === '' ? '' : `?${text}`
}

const paging = (query: IndexPageQuery): Array<[string, string | number | boolean | null | undefined]> => [
  ['limit', query.limit],
  ['next', query.next],
  ['minheight', query.minheight],
  ['maxheight', query.maxheight],
  ['chain', query.chain],
  ['canonical', query.canonical],
]

/** The index resources of `{base}` (spec profile), each a function of its parameters. */
export const indexPaths = {
  /** GET: every stored copy of a transaction (on `chain` only, when given). */
  transaction: (base: string, requestKey: string, chain?: number): string =>
    `${base}/transaction/${encodeURIComponent(requestKey)}${queryString([['chain', chain]])}`,
  /** GET: a page of events by name or module, newest first. */
  eventPage: (base: string, filter: EventFilter, query: IndexPageQuery = {}): string =>
    `${base}/event${queryString([['name', filter.name], ['module', filter.module], ...paging(query)])}`,
  /** GET: a page of an account's transfers of `token` (the node's default: coin), newest first. */
  transferPage: (base: string, account: string, token?: string, query: IndexPageQuery = {}): string =>
    `${base}/transfer${queryString([['account', account], ['token', token], ...paging(query)])}`,
  /** GET: the event stream of events by name or module as their blocks join the winning branch; `since`: the id of the last event seen. */
  eventUpdates: (base: string, filter: EventFilter, since?: string): string =>
    `${base}/event/updates${queryString([
      ['name', filter.name],
      ['module', filter.module],
      ['since', since],
    ])}`,
} as const
