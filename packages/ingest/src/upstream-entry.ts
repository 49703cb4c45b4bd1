import { errorCode } from '@weft/errors'
import type { NetworkName, Profile } from '@weft/types'
import type { UpstreamRefusedError } from './errors.js'
import type { UpstreamApi, UpstreamCut } from './upstream-api.js'

/**
 * Where an upstream stands: `pending` (not reached yet), `active` (the one being followed),
 * `standby` (reached, healthy, not in use), `retrying` (its last request failed: asked again after
 * a backoff, until one succeeds), `demoted` (it served an invalid block or answer: used only when no other upstream can
 * be), `refused` (another network, or not a chainweb-node or Weft: never used).
 */
export type UpstreamState = 'pending' | 'active' | 'standby' | 'retrying' | 'demoted' | 'refused'

/** The last failure of an upstream: its code, message and time (ms since the epoch). */
export interface UpstreamFailure {
  readonly code: string
  readonly message: string
  readonly at: number
}

/** One upstream's figures, as `Ingest.status()` reports them. */
export interface UpstreamStatus {
  readonly url: string
  readonly state: UpstreamState
  readonly network: NetworkName | undefined
  readonly profile: Profile | undefined
  /** Last time (ms since the epoch) it answered or its event stream sent a byte. */
  readonly lastContact: number | undefined
  readonly lastError: UpstreamFailure | undefined
  /** Requests that failed and were tried again (on it or another upstream). */
  readonly retries: number
  /** Its cut when last read: chain -> height. */
  readonly cut: ReadonlyMap<number, number> | undefined
  /** When that cut was read (ms since the epoch). */
  readonly cutAt: number | undefined
}

/** The failure record of an error. */
export function failureOf(error: unknown, at: number): UpstreamFailure {
  return { code: errorCode(error) ?? 'UNKNOWN', message: error instanceof Error ? error.message : String(error), at }
}

/** One upstream as the pool keeps it. */
export class UpstreamEntry {
  readonly url: string
  /** Its endpoints, once discovery reached it. */
  api: UpstreamApi | undefined
  /** Why it is never used, when it was refused. */
  refused: UpstreamRefusedError | undefined
  lastContact: number | undefined
  lastError: UpstreamFailure | undefined
  /** Consecutive failures, reset by a success. */
  failures = 0
  retries = 0
  /** Not used before this time (ms since the epoch). */
  nextAttemptAt = 0
  /** Demoted until this time. */
  demotedUntil = 0
  /** When its last failure was counted: requests that began before it and fail too add nothing. */
  lastFailureAt = Number.NEGATIVE_INFINITY
  cut: { readonly heads: UpstreamCut; readonly at: number } | undefined

  constructor(url: string) {
    this.url = url
  }

  /** Whether it may be asked now: reached or reachable, not refused, not waiting. */
  available(now: number): boolean {
    return this.refused === undefined && this.nextAttemptAt <= now
  }

  /** Its state at `now`; `active` when it is the pool's current one. */
  state(now: number, current: boolean): UpstreamState {
    if (this.refused !== undefined) return 'refused'
    if (this.demotedUntil > now) return 'demoted'
    if (this.failures > 0) return 'retrying'
    if (this.api === undefined) return 'pending'
    return current ? 'active' : 'standby'
  }

  /** Its figures at `now`. */
  status(now: number, current: boolean): UpstreamStatus {
    return {
      url: this.url,
      state: this.state(now, current),
      network: this.api?.target.network,
      profile: this.api?.target.profile,
      lastContact: this.lastContact,
      lastError: this.lastError,
      retries: this.retries,
      cut: this.cut === undefined ? undefined : new Map([...this.cut.heads].map(([chain, head]) => [chain, head.height])),
      cutAt: this.cut?.at,
    }
  }
}
