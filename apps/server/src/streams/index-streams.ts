import type { ServerResponse } from 'node:http'
import { type BlockEntries, deriveEntries } from '@weft/index'
import type { ChainStore } from '@weft/store'
import type { PayloadWithOutputs } from '@weft/types'
import type { Logger } from 'pino'
import { InvalidQueryError } from '../errors.js'
import { isFullRequestKey } from '../pact/pact-requests.js'
import type { AnnouncementLog } from './announcement-log.js'
import { eventFrame } from './event-frames.js'
import { EventHub } from './event-hub.js'
import type { EventHubOptions } from './hub-options.js'
import { resumeFromPageFrame } from './resume.js'

/** What a filtered stream sends: one transaction's copies, one account's transfers, or events by name or module. */
export type IndexFilter =
  | { readonly kind: 'transaction'; readonly requestKey: string }
  | { readonly kind: 'transfer'; readonly account: string; readonly token: string | undefined }
  | { readonly kind: 'event'; readonly name: string | undefined; readonly module: string | undefined }

/** The event name of each filter's frames. */
export const FILTER_EVENT_NAMES = { transaction: 'Transaction', transfer: 'Transfer', event: 'Event' } as const

type Query = Record<string, string | string[] | undefined>

// Account names and module names are Pact strings: bounded here as the index bounds its keys.
const MAX_TEXT = 256

function text(query: Query, key: string): string | undefined {
  const value = query[key]
  if (value === undefined) return undefined
  if (typeof value !== 'string' || value === '' || Buffer.byteLength(value) > MAX_TEXT)
    throw new InvalidQueryError(
      `Expected query parameter ${key} once, 1 to ${MAX_TEXT} bytes, received ${JSON.stringify(value).slice(0, 80)}`,
    )
  return value
}

/** The filter of a `/transaction/updates`, `/transfer/updates` or `/event/updates` request, or INVALID_QUERY. */
export function parseIndexFilter(kind: IndexFilter['kind'], query: Query): IndexFilter {
  if (kind === 'transaction') {
    const requestKey = text(query, 'requestKey')
    if (requestKey === undefined || !isFullRequestKey(requestKey))
      throw new InvalidQueryError(
        `Expected query parameter requestKey to be a request key (43 characters of base64url), received ${JSON.stringify(requestKey ?? null)}`,
      )
    return { kind, requestKey }
  }
  if (kind === 'transfer') {
    const account = text(query, 'account')
    if (account === undefined) throw new InvalidQueryError('Expected query parameter account (an account name), received none')
    return { kind, account, token: text(query, 'token') }
  }
  const name = text(query, 'name')
  const module = text(query, 'module')
  if ((name === undefined) === (module === undefined))
    throw new InvalidQueryError('Expected exactly one of the query parameters name (e.g. coin.TRANSFER) and module (e.g. coin)')
  return { kind, name, module }
}

/** The data of each frame `filter` takes from a block's entries, in payload order. */
export function matchingData(filter: IndexFilter, entries: BlockEntries): string[] {
  const { chain, height } = entries.block
  const place = `"chain":${chain},"height":${height},"blockHash":"${entries.block.hash.toString('base64url')}"`
  const pactId = (id: string | undefined) => (id === undefined ? 'null' : JSON.stringify(id))
  if (filter.kind === 'transaction')
    return entries.transactions
      .filter((entry) => entry.requestKey === filter.requestKey)
      .map(
        (entry) =>
          `{"requestKey":${JSON.stringify(entry.requestKey)},${place},"position":${entry.position},"pactId":${pactId(entry.pactId)}}`,
      )
  if (filter.kind === 'transfer')
    return entries.transfers
      .filter(
        (entry) =>
          (entry.sender === filter.account || entry.receiver === filter.account) &&
          (filter.token === undefined || entry.token === filter.token),
      )
      .map(
        (entry) =>
          `{"requestKey":${JSON.stringify(entry.requestKey)},${place},"position":${entry.position},"index":${entry.index},` +
          `"token":${JSON.stringify(entry.token)},"sender":${JSON.stringify(entry.sender)},"receiver":${JSON.stringify(entry.receiver)},` +
          `"amount":"${entry.amount}","pactId":${pactId(entry.pactId)}}`,
      )
  return entries.events
    .filter((entry) => (filter.module !== undefined ? entry.module === filter.module : `${entry.module}.${entry.name}` === filter.name))
    .map(
      (entry) =>
        `{"requestKey":${JSON.stringify(entry.requestKey)},${place},"position":${entry.position},"index":${entry.index},` +
        `"module":${JSON.stringify(entry.module)},"name":${JSON.stringify(entry.name)},"params":${entry.params}}`,
    )
}

/** A block announced by a feed: its place in the feed's log, and what deriving its entries needs. */
export interface AnnouncedBlock {
  readonly seq: number
  readonly chain: number
  readonly height: number
  readonly hash: Buffer
  readonly payloadHash: Uint8Array
}

interface Filtered {
  readonly hub: EventHub
  readonly filter: IndexFilter
}

/**
 * The filtered streams of one feed (a confirmation depth): each client has a hub of its own (its
 * keep-alive, backlog bound and replay), and is sent the frames its filter takes from each block the
 * feed announces, in the feed's order. Blocks are read and their entries derived once, in order,
 * only while a filtered client listens. An event's id is `<epoch>.<seq>.<k>`: the feed's id of the
 * block and the frame's place among the block's frames for that filter, so a client resumes after
 * the last frame it saw; `<epoch>.<seq>` (a ResumeFromPage event's) stands after all of that block's.
 */
export class IndexedStreams {
  readonly #store: ChainStore
  readonly #log: AnnouncementLog
  readonly #hubOptions: EventHubOptions
  readonly #logger: Logger
  readonly #clients = new Set<Filtered>()
  #tail: Promise<void> = Promise.resolve()

  constructor(parts: { store: ChainStore; log: AnnouncementLog; hubOptions: EventHubOptions; logger: Logger }) {
    this.#store = parts.store
    this.#log = parts.log
    this.#hubOptions = parts.hubOptions
    this.#logger = parts.logger
  }

  /** Clients listening. */
  get size(): number {
    for (const client of this.#clients) if (client.hub.size === 0) this.#clients.delete(client)
    return this.#clients.size
  }

  /** Starts a filtered stream on `res`, first sent what followed `lastId` when given (see `replay`). */
  attach(res: ServerResponse, filter: IndexFilter, lastId: string | undefined): void {
    const hub = new EventHub(this.#hubOptions)
    const client = { hub, filter }
    this.#clients.add(client)
    res.once('close', () => this.#clients.delete(client))
    hub.attach(res, lastId === undefined ? undefined : this.#replay(filter, lastId))
  }

  /** Called for each block the feed announces, in order. */
  announced(block: AnnouncedBlock): void {
    if (this.size === 0) return
    const clients = [...this.#clients]
    const read = this.#entries(block)
    this.#tail = this.#tail.then(async () => {
      const entries = await read.catch((error: unknown) => {
        this.#logger.error(
          { err: error, chain: block.chain, height: block.height },
          'a filtered stream could not read a block: its clients are cut',
        )
        for (const client of clients) client.hub.cutAll()
        return undefined
      })
      if (entries === undefined) return
      for (const client of clients) this.#publish(client, block.seq, entries)
    })
  }

  /** Stops: every client is cut, the reads running are waited for. */
  async stop(): Promise<void> {
    for (const client of this.#clients) client.hub.close()
    this.#clients.clear()
    await this.#tail
  }

  #publish(client: Filtered, seq: number, entries: BlockEntries): void {
    matchingData(client.filter, entries).forEach((data, k) => {
      client.hub.publish(eventFrame(FILTER_EVENT_NAMES[client.filter.kind], [Buffer.from(data)], `${this.#log.idOf(seq)}.${k}`))
    })
  }

  async #entries(block: Omit<AnnouncedBlock, 'seq'>): Promise<BlockEntries | undefined> {
    const json = await this.#store.getPayloadJson(block.payloadHash)
    if (json === undefined) return undefined
    const payload = JSON.parse(json.toString('utf8')) as PayloadWithOutputs
    return deriveEntries({ chain: block.chain, height: block.height, hash: block.hash, payload })
  }

  // The frames after `lastId` (`<epoch>.<seq>.<k>`) among the feed's logged blocks; or one
  // ResumeFromPage frame when the id is not of this feed's window.
  async *#replay(filter: IndexFilter, lastId: string): AsyncGenerator<Buffer> {
    const match = /^([0-9a-f]{16}\.(?:0|[1-9][0-9]{0,15}))(?:\.(0|[1-9][0-9]{0,5}))?$/.exec(lastId)
    const point = match === null ? { kind: 'malformed' as const } : this.#log.pointOf(match[1] as string)
    const upTo = this.#log.head
    if (match === null || point.kind !== 'resume') {
      // Its id is the stream's position: after every frame of the last block announced.
      yield resumeFromPageFrame(this.#log, lastId, point.kind === 'expired', upTo)
      return
    }
    // `<epoch>.<seq>` alone: after every frame of that block.
    const seen = match[2] === undefined ? Number.POSITIVE_INFINITY : Number(match[2])
    // The block of the last frame seen may have had more for this filter.
    const from = point.seq === 0 ? [] : this.#log.between(point.seq - 1, point.seq)
    for (const entry of [...from, ...this.#log.between(point.seq, upTo)]) {
      if (entry.block === undefined) continue
      const entries = await this.#entries({ ...entry.block, payloadHash: entry.payloadHash })
      if (entries === undefined) continue
      const frames = matchingData(filter, entries)
      for (let k = entry.seq === point.seq ? seen + 1 : 0; k < frames.length; k++)
        yield eventFrame(FILTER_EVENT_NAMES[filter.kind], [Buffer.from(frames[k] as string)], `${this.#log.idOf(entry.seq)}.${k}`)
    }
  }
}
