import type { TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import {
  type BlockHeader,
  BlockPage,
  type ChainwebBlockHeader,
  ChainwebBlockPage,
  type ChainwebFullBlock,
  ChainwebHeaderUpdate,
  Cut,
  type FullBlock,
  HeaderUpdate,
  type NetworkName,
  NodeInfo,
  type Profile,
} from '@weft/types'
import { type ConfirmedHeadersOptions, confirmedHeaders } from './confirmed-headers.js'
import { InvalidResponseError, WeftHttpError, WeftNetworkError } from './errors.js'
import { parseEventStream } from './event-stream.js'
import { compareHeaders } from './header-order.js'
import { isTransient, sleep } from './retry.js'

/** A full block in either profile (the header's version key differs). */
export type AnyFullBlock = FullBlock | ChainwebFullBlock
/** A block header in either profile. */
export type AnyBlockHeader = BlockHeader | ChainwebBlockHeader
/** A page of full blocks in either profile. */
export type AnyBlockPage = BlockPage | ChainwebBlockPage
/** The data of a header update event in either profile. */
export type AnyHeaderUpdate = HeaderUpdate | ChainwebHeaderUpdate

/** How to reach a node: its root URL, and the network and profile it serves (found out from `/info` when left out). */
export interface ClientOptions {
  url: string
  network?: NetworkName
  profile?: Profile
  /** Check every response body against its `@weft/types` schema (default false). */
  validate?: boolean
  /** Replaces the global `fetch`, e.g. to add a dispatcher. */
  fetch?: typeof globalThis.fetch
  /** Extra request headers sent with every request. */
  headers?: Readonly<Record<string, string>>
}

/** Paging parameters of GET block and POST branch; `limit` is the page size asked of the server. */
export interface PageQuery {
  limit?: number
  next?: string | null
  minheight?: number
  maxheight?: number
}

/** The bounds of a branch query: hashes as text. */
export interface BranchBounds {
  lower?: readonly string[]
  upper?: readonly string[]
}

/** Options of the header update stream. */
export interface HeaderUpdatesOptions {
  /** Ends the stream (the iterator returns) when aborted. */
  signal?: AbortSignal
  /** First wait before reconnecting, in milliseconds (default 500); doubles up to `maxRetryDelay`. */
  retryDelay?: number
  /** Longest wait between reconnection attempts, in milliseconds (default 5000). */
  maxRetryDelay?: number
  /** Reconnect when nothing, not even a keep-alive comment, arrived for this long, in milliseconds (default 60000; 0: never). */
  idleTimeout?: number
}

/** An item of `headerEvents`: a (re)connection, after which events may have been missed, or an update. */
export type HeaderStreamEvent = { type: 'connected' } | { type: 'update'; update: AnyHeaderUpdate }

/** The typed client of one Weft (or chainweb) node. */
export interface WeftClient {
  readonly url: string
  /** The network and profile the client speaks, found out from `/info` when not given. */
  target(): Promise<{ network: NetworkName; profile: Profile }>
  /** GET /info. */
  info(): Promise<NodeInfo>
  /** GET /health-check: the body text; throws WeftHttpError unless 200. */
  health(): Promise<string>
  /** One page of GET block; a query that matches nothing is an empty page in both profiles. */
  blockPage(chain: number, query?: PageQuery): Promise<AnyBlockPage>
  /** Every page of GET block, following `next`. */
  blockPages(chain: number, query?: PageQuery): AsyncGenerator<AnyBlockPage>
  /** Every block of GET block, following `next`: ascending height, orphans included. */
  blocks(chain: number, query?: PageQuery): AsyncGenerator<AnyFullBlock>
  /** One page of POST branch; a query that matches nothing is an empty page in both profiles. */
  branchPage(chain: number, bounds: BranchBounds, query?: PageQuery): Promise<AnyBlockPage>
  /** Every page of POST branch, following `next`. */
  branchPages(chain: number, bounds: BranchBounds, query?: PageQuery): AsyncGenerator<AnyBlockPage>
  /** Every block of POST branch, following `next`: descending height. */
  branch(chain: number, bounds: BranchBounds, query?: PageQuery): AsyncGenerator<AnyFullBlock>
  /** The best head (highest weight, ties to the lowest hash) of each chain; from GET cut, or searched with GET block. */
  heads(chains?: readonly number[]): Promise<Map<number, AnyBlockHeader>>
  /** The header update stream; reconnects whenever the server ends it or the connection fails. */
  headerUpdates(options?: HeaderUpdatesOptions): AsyncGenerator<AnyHeaderUpdate>
  /** The header update stream with a `connected` item at each (re)connection, for callers that resynchronise then. */
  headerEvents(options?: HeaderUpdatesOptions): AsyncGenerator<HeaderStreamEvent>
  /** Each header once it is `depth` blocks deep on its chain's winning branch: no orphan, no gap. */
  confirmedHeaders(options: ConfirmedHeadersOptions): AsyncGenerator<AnyBlockHeader>
}

// How far below the highest height the head search looks for a heavier block: weights grow with height.
const headSearchWindow = 8

/** Creates a client of the node at `url`. */
export function createClient(options: ClientOptions): WeftClient {
  const root = options.url.replace(/\/+$/, '')
  const fetchImpl = options.fetch ?? globalThis.fetch
  const validate = options.validate ?? false
  let targetPromise: Promise<{ network: NetworkName; profile: Profile }> | undefined
  let cutSupported = true

  async function send(method: string, url: string, init: { body?: unknown; signal?: AbortSignal | undefined } = {}): Promise<Response> {
    const headers: Record<string, string> = { ...options.headers }
    const request: RequestInit = { method, headers }
    if (init.body !== undefined) {
      headers['content-type'] = 'application/json'
      request.body = JSON.stringify(init.body)
    }
    if (init.signal) request.signal = init.signal
    let response: Response
    try {
      response = await fetchImpl(url, request)
    } catch (error) {
      if (init.signal?.aborted) throw error
      throw new WeftNetworkError(url, { cause: error })
    }
    if (!response.ok) throw new WeftHttpError(response.status, await readBody(response), url, method)
    return response
  }

  function check<T>(schema: TSchema, value: unknown, what: string): T {
    if (validate && !Value.Check(schema, value)) {
      throw new InvalidResponseError(
        what,
        [...Value.Errors(schema, value)].map((e) => `${e.path || '/'} ${e.message}`),
      )
    }
    return value as T
  }

  async function target(): Promise<{ network: NetworkName; profile: Profile }> {
    if (options.network && options.profile) return { network: options.network, profile: options.profile }
    if (!targetPromise) {
      const discovery = (async () => {
        const response = await send('GET', `${root}/info`)
        const info = check<NodeInfo>(NodeInfo, await response.json(), 'GET /info')
        // Only the chainweb profile names its version header this way: the profile shows in every response.
        const profile = options.profile ?? (response.headers.has('x-chainweb-node-version') ? 'chainweb' : 'spec')
        return { network: options.network ?? info.nodeVersion, profile }
      })()
      // A failed discovery is retried on the next call rather than remembered.
      discovery.catch(() => {
        if (targetPromise === discovery) targetPromise = undefined
      })
      targetPromise = discovery
    }
    return targetPromise
  }

  async function base(): Promise<string> {
    const { network, profile } = await target()
    return `${root}/${profile === 'chainweb' ? 'chainweb' : 'chain'}/0.0/${network}`
  }

  async function pageSchema(): Promise<TSchema> {
    return (await target()).profile === 'chainweb' ? ChainwebBlockPage : BlockPage
  }

  async function readPage(method: 'GET' | 'POST', url: string, body?: unknown): Promise<AnyBlockPage> {
    try {
      const response = await send(method, url, body === undefined ? {} : { body })
      return check<AnyBlockPage>(await pageSchema(), await response.json(), `${method} ${url}`)
    } catch (error) {
      // The spec profile answers a query that matches nothing with 404 NO_MATCHING_BLOCKS; chainweb with an empty page.
      if (error instanceof WeftHttpError && error.code === 'NO_MATCHING_BLOCKS') return { limit: 0, items: [], next: null }
      throw error
    }
  }

  async function* follow(fetchPage: (next: string | null) => Promise<AnyBlockPage>, start: string | null | undefined) {
    let next = start ?? null
    for (;;) {
      const page = await fetchPage(next)
      yield page
      // chainweb ends the last non-empty page with `exclusive:<last>`, whose follow-up page is empty.
      if (page.next === null || page.items.length === 0) return
      next = page.next
    }
  }

  const client: WeftClient = {
    url: root,
    target,

    async info() {
      const response = await send('GET', `${root}/info`)
      return check<NodeInfo>(NodeInfo, await response.json(), 'GET /info')
    },

    async health() {
      const response = await send('GET', `${root}/health-check`)
      return response.text()
    },

    async blockPage(chain, query = {}) {
      return readPage('GET', `${await base()}/chain/${chain}/block${queryString(query)}`)
    },

    blockPages(chain, query = {}) {
      return follow((next) => client.blockPage(chain, { ...query, next }), query.next)
    },

    async *blocks(chain, query = {}) {
      for await (const page of client.blockPages(chain, query)) yield* page.items
    },

    async branchPage(chain, bounds, query = {}) {
      const body = { lower: bounds.lower ?? [], upper: bounds.upper ?? [] }
      return readPage('POST', `${await base()}/chain/${chain}/block/branch${queryString(query)}`, body)
    },

    branchPages(chain, bounds, query = {}) {
      return follow((next) => client.branchPage(chain, bounds, { ...query, next }), query.next)
    },

    async *branch(chain, bounds, query = {}) {
      for await (const page of client.branchPages(chain, bounds, query)) yield* page.items
    },

    async heads(chains) {
      const info = await client.info()
      const wanted = chains ?? info.nodeChains.map(Number)
      const genesisHeights = new Map(info.nodeGenesisHeights.map(([chain, height]) => [Number(chain), height]))
      const heads = new Map<number, AnyBlockHeader>()
      let cut: Cut | undefined
      if (cutSupported) {
        try {
          const response = await send('GET', `${await base()}/cut`)
          cut = check<Cut>(Cut, await response.json(), 'GET cut')
        } catch (error) {
          // GET cut is optional: a node without it is searched with GET block instead.
          if (!(error instanceof WeftHttpError) || ![404, 405, 501].includes(error.status)) throw error
          cutSupported = false
        }
      }
      await Promise.all(
        wanted.map(async (chain) => {
          const entry = cut?.hashes[String(chain)]
          let head: AnyBlockHeader | undefined
          if (entry) {
            const page = await client.branchPage(chain, { upper: [entry.hash] }, { minheight: entry.height, limit: 1 })
            head = page.items[0]?.header
          }
          head ??= await searchHead(chain, genesisHeights.get(chain) ?? 0)
          if (head) heads.set(chain, head)
        }),
      )
      return heads
    },

    async *headerEvents(streamOptions = {}) {
      const { signal } = streamOptions
      const retryDelay = streamOptions.retryDelay ?? 500
      const maxRetryDelay = streamOptions.maxRetryDelay ?? 5000
      const idleTimeout = streamOptions.idleTimeout ?? 60_000
      let delay = retryDelay
      while (!signal?.aborted) {
        let response: Response
        try {
          response = await send('GET', `${await base()}/header/updates`, { signal })
        } catch (error) {
          if (signal?.aborted) return
          if (!isTransient(error)) throw error
          await sleep(delay, signal)
          delay = Math.min(delay * 2, maxRetryDelay)
          continue
        }
        delay = retryDelay
        const schema = (await target()).profile === 'chainweb' ? ChainwebHeaderUpdate : HeaderUpdate
        yield { type: 'connected' }
        for await (const event of parseEventStream(bodyChunks(response, idleTimeout))) {
          if (event.event !== 'BlockHeader') continue
          yield { type: 'update', update: check<AnyHeaderUpdate>(schema, JSON.parse(event.data), 'a header update event') }
        }
        // The server ended the stream (restart, or this client fell behind): reconnect after a pause.
        await sleep(retryDelay, signal)
      }
    },

    async *headerUpdates(streamOptions = {}) {
      for await (const event of client.headerEvents(streamOptions)) {
        if (event.type === 'update') yield event.update
      }
    },

    confirmedHeaders(confirmedOptions) {
      return confirmedHeaders(client, confirmedOptions)
    },
  }

  // Without GET cut: find the highest height by doubling then bisecting, then the heaviest block near it.
  async function searchHead(chain: number, genesisHeight: number): Promise<AnyBlockHeader | undefined> {
    const exists = async (height: number) => (await client.blockPage(chain, { minheight: height, limit: 1 })).items.length > 0
    if (!(await exists(genesisHeight))) return undefined
    let low = genesisHeight
    let step = 1
    while (await exists(low + step)) {
      low += step
      step *= 2
    }
    let high = low + step
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2)
      if (await exists(middle)) low = middle
      else high = middle
    }
    let best: AnyBlockHeader | undefined
    for await (const block of client.blocks(chain, { minheight: Math.max(genesisHeight, low - headSearchWindow) })) {
      if (!best || compareHeaders(block.header, best) > 0) best = block.header
    }
    return best
  }

  return client
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

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text()
  if (/json/i.test(response.headers.get('content-type') ?? '')) {
    try {
      return JSON.parse(text) as unknown
    } catch {
      return text
    }
  }
  return text
}

// A connection that breaks mid-stream, or stays silent past `idleTimeout` (a dead peer sends no FIN),
// ends the stream like a clean end does: the caller reconnects.
async function* bodyChunks(response: Response, idleTimeout: number): AsyncGenerator<Uint8Array> {
  if (!response.body) return
  const reader = response.body.getReader()
  let timer: NodeJS.Timeout | undefined
  try {
    for (;;) {
      const idle = new Promise<'idle'>((resolve) => {
        if (idleTimeout > 0) timer = setTimeout(() => resolve('idle'), idleTimeout)
      })
      const result = await Promise.race([reader.read(), idle])
      clearTimeout(timer)
      if (result === 'idle' || result.done) return
      yield result.value
    }
  } catch {
    return
  } finally {
    clearTimeout(timer)
    reader.cancel().catch(() => undefined)
  }
}
