import {
  type EventFilter,
  type EventUpdate,
  followPages,
  type IndexedEvent,
  type IndexedTransfer,
  type IndexPage,
  type IndexPageQuery,
  InvalidResponseError,
  indexPaths,
  isTransient,
  parseEventStream,
  type TransactionCopies,
} from '@weft/api'
import type { Connection } from './connection.js'
import { InvalidOptionError } from './errors.js'
import { sleep } from './sleep.js'
import { bodyChunks, openStream } from './stream-body.js'
import type { EventUpdatesOptions } from './types.js'

// The spec profile's transaction index resources: one transaction's copies, pages of events and of
// an account's transfers (followed like block pages), and the stream of events by name or module.

async function getJson<T>(connection: Connection, url: string, signal?: AbortSignal): Promise<T> {
  const answer = await connection.transport.send({ url, signal })
  try {
    return JSON.parse(Buffer.from(answer.body).toString('utf8')) as T
  } catch (error) {
    throw new InvalidResponseError(`GET ${url} to answer JSON`, 'text that does not parse', [], { cause: error })
  }
}

async function base(connection: Connection): Promise<string> {
  return (await connection.chain()).base
}

function checkFilter(filter: EventFilter): void {
  if ((filter.name === undefined) === (filter.module === undefined))
    throw new InvalidOptionError('filter', 'exactly one of name (coin.TRANSFER) and module (coin)', JSON.stringify(filter))
}

function checkLimit(query: IndexPageQuery): void {
  // A page of 0 items would be refused by the node; the walk would end at once.
  if (query.limit !== undefined && !(Number.isSafeInteger(query.limit) && query.limit >= 1))
    throw new InvalidOptionError('limit', 'a positive integer (the page size)', query.limit)
}

/** Every stored copy of a transaction (`GET {base}/transaction/{requestKey}`); 404 `TX_NOT_FOUND` when none is stored. */
export async function transaction(connection: Connection, requestKey: string, chain?: number): Promise<TransactionCopies> {
  return getJson(connection, indexPaths.transaction(await base(connection), requestKey, chain))
}

/** One page of events by name or module (`GET {base}/event`). */
export async function eventPage(connection: Connection, filter: EventFilter, query: IndexPageQuery = {}): Promise<IndexPage<IndexedEvent>> {
  checkFilter(filter)
  return getJson(connection, indexPaths.eventPage(await base(connection), filter, query))
}

/** One page of an account's transfers (`GET {base}/transfer`). */
export async function transferPage(
  connection: Connection,
  account: string,
  token: string | undefined,
  query: IndexPageQuery = {},
): Promise<IndexPage<IndexedTransfer>> {
  return getJson(connection, indexPaths.transferPage(await base(connection), account, token, query))
}

/** The items of every page from `query.next` on, each page asked with the cursor of the one before. */
export async function* indexItems<T>(
  readPage: (next: string | undefined) => Promise<IndexPage<T>>,
  query: IndexPageQuery,
): AsyncGenerator<T> {
  checkLimit(query)
  for await (const page of followPages(readPage, query.next ?? undefined)) yield* page.items
}

/**
 * Events by name or module as their blocks join the winning branch (`{base}/event/updates`), in
 * order. Reconnects when the stream ends or a transient failure cuts it, sending back the id of the
 * last event seen (`since`) so that the node resumes after it; an id it no longer keeps is answered
 * `ResumeFromPage` (events missed), passed to `onResumeFailed` when given.
 */
export async function* eventUpdates(
  connection: Connection,
  filter: EventFilter,
  options: EventUpdatesOptions = {},
): AsyncGenerator<EventUpdate> {
  checkFilter(filter)
  const { signal } = options
  const retryDelay = options.retryDelay ?? 500
  const idleTimeout = options.idleTimeout ?? 60_000
  if (!(retryDelay > 0 && Number.isFinite(retryDelay))) throw new InvalidOptionError('retryDelay', 'a positive number', retryDelay)
  if (!(idleTimeout >= 0 && Number.isFinite(idleTimeout)))
    throw new InvalidOptionError('idleTimeout', 'a non-negative number (0: never)', idleTimeout)
  let lastId = options.lastEventId
  while (!signal?.aborted) {
    try {
      const response = await openStream(connection, indexPaths.eventUpdates(await base(connection), filter, lastId), signal, idleTimeout)
      for await (const event of parseEventStream(bodyChunks(response, idleTimeout))) {
        if (signal?.aborted) return
        if (event.id !== undefined) lastId = event.id
        if (event.event === 'ResumeFromPage') options.onResumeFailed?.(event.data)
        if (event.event === 'Event') yield JSON.parse(event.data) as EventUpdate
      }
    } catch (error) {
      if (signal?.aborted) return
      if (!isTransient(error)) throw error
    }
    await sleep(retryDelay, signal)
  }
}
