import { getNetwork, type Network } from '@weft/block'
import type { ChainStore } from '@weft/store'
import { HttpClient } from './http-client.js'
import type { IngestSettings } from './options.js'
import { RequestLimiter } from './request-limiter.js'
import { UpstreamPool } from './upstream-pool.js'

/** What every part of a running ingest shares. */
export interface IngestContext {
  readonly settings: IngestSettings
  readonly store: ChainStore
  readonly network: Network
  readonly http: HttpClient
  readonly pool: UpstreamPool
  /** Bounds the requests in flight (`concurrency`). */
  readonly limiter: RequestLimiter
  /** Aborted by `stop()`. */
  readonly signal: AbortSignal
  /** Blocks refused by the store as invalid so far. */
  rejected: number
  /** Of those, how many broke each rule, by violation code (a block that broke two counts under both). */
  readonly refusals: Map<string, number>
}

/** The parts of a running ingest, made from its settings; `signal` stops them. */
export function createContext(settings: IngestSettings, signal: AbortSignal): IngestContext {
  const { store } = settings
  const http = new HttpClient({ timeoutMs: settings.requestTimeout, maxSockets: settings.concurrency + 2 })
  const pool = new UpstreamPool({
    urls: settings.upstreams,
    http,
    network: store.network.name,
    profile: settings.profile,
    checkResponses: settings.checkResponses,
    logger: settings.logger,
    backoff: { baseMs: settings.retryDelay, maxMs: settings.maxRetryDelay },
    demoteMs: settings.demoteFor,
    attempts: settings.attempts,
    random: Math.random,
  })
  return {
    settings,
    store,
    network: getNetwork(store.network.name),
    http,
    pool,
    limiter: new RequestLimiter(settings.concurrency),
    signal,
    rejected: 0,
    refusals: new Map(),
  }
}
