import type { Network } from '@weft/block'
import type { ChainStore } from '@weft/store'
import type { HttpClient } from './http-client.js'
import type { InsertTally } from './insert-tally.js'
import type { IngestSettings } from './options.js'
import type { RequestLimiter } from './request-limiter.js'
import type { UpstreamPool } from './upstream-pool.js'

/** What every part of a running ingest shares. */
export interface IngestContext {
  readonly settings: IngestSettings
  readonly store: ChainStore
  readonly network: Network
  readonly http: HttpClient
  readonly pool: UpstreamPool
  /** Bounds the requests in flight (`concurrency`). */
  readonly limiter: RequestLimiter
  readonly tally: InsertTally
  /** Aborted by `stop()`. */
  readonly signal: AbortSignal
  /** Blocks refused by the store as invalid so far. */
  rejected: number
}
