import type { ChainStore } from '@weft/store'
import type { Profile } from '@weft/types'
import { InvalidIngestOptionError } from './errors.js'
import type { IngestLogger } from './logger.js'
import { silentLogger } from './logger.js'

/** What ingest reports as it goes, for a command line or a progress display. */
export type IngestEvent =
  /** A page of a copy, once its window is in the store: its blocks' heights and how many were new. */
  | { type: 'page'; chain: number; minheight: number; maxheight: number; blocks: number; inserted: number }
  /** A copy reached the upstream's cut, which is now the store's: blocks new during that copy, chains of the network. */
  | { type: 'synced'; inserted: number; chains: number }
  /** A block new to the store while following (after a copy). */
  | { type: 'inserted'; chain: number; height: number; hash: string }

/** Options of `createIngest`. Times are milliseconds. */
export interface IngestOptions {
  /** The store to fill: opened for the upstreams' network with `cutPolicy: 'adopted'`. */
  readonly store: ChainStore
  /** Upstream URLs, in order of preference: a chainweb-node's service API or a Weft (either profile). */
  readonly upstreams: readonly string[]
  /** The upstreams' profile, when known; default: found out from each one's version header or URL path. */
  readonly profile?: Profile | undefined
  /** Requests in flight at most, over every chain (default 4). */
  readonly concurrency?: number | undefined
  /** Blocks asked per page (default 360, the contract's cap). */
  readonly pageSize?: number | undefined
  /** About how many blocks a backfill window holds over all chains (default 2048). */
  readonly windowBlocks?: number | undefined
  /** Heights re-read below each chain's best stored block when a copy starts, for forks that grew there (default 16). */
  readonly resumeMargin?: number | undefined
  /** Keep following after the first copy (default true); false: copy once and stop. */
  readonly follow?: boolean | undefined
  /** How often the upstream's cut is read while its event stream is silent or broken, and the other upstreams are probed (default 10,000). */
  readonly pollInterval?: number | undefined
  /** No byte for this long fails a request (default 30,000). */
  readonly requestTimeout?: number | undefined
  /** No byte, not even a keep-alive comment, for this long ends an event stream, which is then opened again (default 60,000). */
  readonly streamIdleTimeout?: number | undefined
  /** First wait after a failure; it doubles per consecutive failure, with jitter (default 250). */
  readonly retryDelay?: number | undefined
  /** Longest wait between attempts (default 30,000). */
  readonly maxRetryDelay?: number | undefined
  /** How long an upstream that served something invalid stays last in line (default 600,000). */
  readonly demoteFor?: number | undefined
  /** Readiness: the most heights any chain may lag behind the best upstream's cut (default 3). */
  readonly maxLag?: number | undefined
  /** Readiness: the longest time since any upstream was heard from (default 120,000). */
  readonly staleAfter?: number | undefined
  /**
   * End ingest (`done` rejects) on the first round that fails for a reason other than an upstream
   * that does not answer: a block that fails validation, an answer the contract does not allow
   * (default false: such an upstream is demoted, and the round tried again after a backoff). For
   * one-shot tools.
   */
  readonly failFast?: boolean | undefined
  /** Tries of one request, over all upstreams, before its failure fails the round (default: no limit). */
  readonly attempts?: number | undefined
  /** Check every upstream answer against the `@weft/types` schemas (default false; blocks are validated by the store anyway). */
  readonly checkResponses?: boolean | undefined
  /** Where lines go: pino's logger fits (default: nowhere). */
  readonly logger?: IngestLogger | undefined
  readonly onEvent?: ((event: IngestEvent) => void) | undefined
  /** Told how far a copy got, in heights summed over chains: `done` of `total`. */
  readonly onProgress?: ((done: number, total: number) => void) | undefined
}

type Filled<T> = { readonly [K in keyof T]-?: Exclude<T[K], undefined> }

/** The options with every default filled in and checked. */
export type IngestSettings = Filled<Omit<IngestOptions, 'profile' | 'onEvent' | 'onProgress'>> &
  Pick<IngestOptions, 'profile' | 'onEvent' | 'onProgress'>

const positiveIntegers = {
  concurrency: 4,
  pageSize: 360,
  windowBlocks: 2048,
  pollInterval: 10_000,
  requestTimeout: 30_000,
  streamIdleTimeout: 60_000,
  retryDelay: 250,
  maxRetryDelay: 30_000,
  demoteFor: 600_000,
  staleAfter: 120_000,
} as const

/** Fills the defaults of `options` and checks every value; throws `InvalidIngestOptionError`. */
export function resolveIngestOptions(options: IngestOptions): IngestSettings {
  if (options.store?.cutPolicy !== 'adopted') {
    throw new InvalidIngestOptionError('store', "a store opened with cutPolicy 'adopted'", options.store?.cutPolicy)
  }
  if (!Array.isArray(options.upstreams) || options.upstreams.length === 0) {
    throw new InvalidIngestOptionError('upstreams', 'a list of at least one URL', options.upstreams)
  }
  const numbers: Record<string, number> = {}
  for (const [name, fallback] of Object.entries(positiveIntegers)) {
    const value = (options as unknown as Record<string, unknown>)[name] ?? fallback
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
      throw new InvalidIngestOptionError(name, 'a positive integer', value)
    }
    numbers[name] = value
  }
  for (const name of ['resumeMargin', 'maxLag'] as const) {
    const value = options[name] ?? (name === 'maxLag' ? 3 : 16)
    if (!Number.isSafeInteger(value) || value < 0) throw new InvalidIngestOptionError(name, 'a non-negative integer', value)
    numbers[name] = value
  }
  const attempts = options.attempts ?? Number.POSITIVE_INFINITY
  if (!(attempts === Number.POSITIVE_INFINITY || (Number.isSafeInteger(attempts) && attempts >= 1))) {
    throw new InvalidIngestOptionError('attempts', 'a positive integer or Infinity', attempts)
  }
  if (options.profile !== undefined && options.profile !== 'spec' && options.profile !== 'chainweb') {
    throw new InvalidIngestOptionError('profile', 'spec or chainweb', options.profile)
  }
  return {
    ...(numbers as Record<keyof typeof positiveIntegers | 'resumeMargin' | 'maxLag', number>),
    store: options.store,
    upstreams: options.upstreams,
    profile: options.profile,
    follow: options.follow ?? true,
    failFast: options.failFast ?? false,
    attempts,
    checkResponses: options.checkResponses ?? false,
    logger: options.logger ?? silentLogger,
    onEvent: options.onEvent,
    onProgress: options.onProgress,
  }
}
