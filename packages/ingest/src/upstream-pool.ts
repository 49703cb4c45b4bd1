import { InvalidResponseError, isTransient, WeftHttpError } from '@weft/api'
import type { NetworkName, Profile } from '@weft/types'
import { attemptDelay, type BackoffOptions, backoffDelay, pause } from './backoff.js'
import { IngestStoppedError, UpstreamRefusedError, UpstreamResponseError } from './errors.js'
import type { HttpClient } from './http-client.js'
import type { IngestLogger } from './logger.js'
import { UpstreamApi } from './upstream-api.js'
import { failureOf, UpstreamEntry, type UpstreamStatus } from './upstream-entry.js'
import { discoverUpstream, parseUpstreamUrl } from './upstream-target.js'

/** What the pool needs: the upstreams, how to reach and judge them, and where to log. */
export interface UpstreamPoolOptions {
  readonly urls: readonly string[]
  readonly http: HttpClient
  readonly network: NetworkName
  readonly profile: Profile | undefined
  readonly checkResponses: boolean
  readonly logger: IngestLogger
  readonly backoff: BackoffOptions
  /** How long a demoted upstream stays last in line (ms). */
  readonly demoteMs: number
  /** Tries of one request before its last failure is thrown (Infinity: until it succeeds). */
  readonly attempts: number
  readonly random: () => number
}

/**
 * The upstreams in order of preference, and the one in use. Requests go to the current upstream;
 * a transient failure (no answer, 5xx, 429) puts it in backoff (Retry-After honoured, else
 * exponential with jitter) and the request moves to the next available upstream, or waits for the
 * first to come back. An upstream that served something invalid is demoted: last in line for a
 * while. Every retry and failover is a warn line.
 */
export class UpstreamPool {
  readonly entries: readonly UpstreamEntry[]
  /** Times the current upstream changed. */
  failovers = 0
  readonly #options: UpstreamPoolOptions
  #current: UpstreamEntry | undefined

  constructor(options: UpstreamPoolOptions) {
    this.#options = options
    // Parsed up front: a malformed URL is an option error at once, not a failure much later.
    this.entries = options.urls.map((url) => new UpstreamEntry(parseUpstreamUrl(url).url))
  }

  /** The upstream in use, if one was chosen yet. */
  get current(): UpstreamEntry | undefined {
    return this.#current
  }

  /** Failed requests that were tried again, over every upstream. */
  get retries(): number {
    return this.entries.reduce((sum, entry) => sum + entry.retries, 0)
  }

  /**
   * Reaches every upstream once, at once: one of another network, or not a chainweb-node or Weft,
   * stops the start (thrown); one that does not answer is logged and tried again when needed.
   */
  async discoverAll(signal: AbortSignal): Promise<void> {
    await Promise.all(
      this.entries.map(async (entry) => {
        const started = Date.now()
        try {
          await this.#discover(entry, signal)
        } catch (error) {
          if (!isTransient(error)) throw error
          this.failed(entry, error, 'discovery', started)
        }
      }),
    )
  }

  /**
   * Runs `task` against the current upstream until it succeeds (or `attempts` failed): transient
   * failures move to the next available upstream (or wait for one); an answer the contract does not allow demotes that
   * upstream and is thrown, as is anything else.
   */
  async use<T>(what: string, task: (api: UpstreamApi, entry: UpstreamEntry) => Promise<T>, signal: AbortSignal): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const entry = await this.#pick(signal)
      const started = Date.now()
      try {
        // Reaching an upstream not reached yet is part of the attempt.
        const api = entry.api ?? (await this.#discover(entry, signal))
        this.#select(entry)
        const result = await task(api, entry)
        this.contact(entry)
        entry.failures = 0
        return result
      } catch (error) {
        if (signal.aborted || error instanceof IngestStoppedError) throw new IngestStoppedError()
        if (error instanceof UpstreamRefusedError) continue
        if (isTransient(error)) {
          this.failed(entry, error, what, started)
          if (attempt >= this.#options.attempts) throw error
          continue
        }
        if (error instanceof UpstreamResponseError || error instanceof InvalidResponseError || error instanceof WeftHttpError)
          this.demote(entry, error)
        throw error
      }
    }
  }

  /** Notes that `entry` answered or sent a byte. */
  contact(entry: UpstreamEntry): void {
    entry.lastContact = Date.now()
  }

  /** Counts a transient failure of `entry` once per outage (requests begun before the last counted failure add nothing), logs it, and sets its next attempt. */
  failed(entry: UpstreamEntry, error: unknown, what: string, startedAt: number): void {
    if (entry.lastFailureAt >= startedAt) return
    const now = Date.now()
    entry.lastFailureAt = now
    entry.failures += 1
    entry.retries += 1
    const retryAfter = error instanceof WeftHttpError ? error.retryAfterMs : undefined
    const delay = attemptDelay(entry.failures, retryAfter, this.#options.backoff, this.#options.random())
    entry.nextAttemptAt = now + delay
    entry.lastError = failureOf(error, now)
    this.#options.logger.warn(
      {
        upstream: entry.url,
        reason: entry.lastError.message,
        code: entry.lastError.code,
        during: what,
        attempt: entry.failures,
        delayMs: delay,
        nextAttempt: new Date(entry.nextAttemptAt).toISOString(),
      },
      retryAfter === undefined
        ? 'upstream request failed; retrying after a backoff'
        : 'upstream asked to wait (Retry-After); retrying then',
    )
  }

  /** Puts `entry` last in line for a while: it served a block that failed validation, or an answer the contract does not allow. */
  demote(entry: UpstreamEntry, error: unknown): void {
    const now = Date.now()
    entry.demotedUntil = now + this.#options.demoteMs
    entry.failures += 1
    entry.lastFailureAt = now
    entry.nextAttemptAt = now + backoffDelay(entry.failures, this.#options.backoff, this.#options.random())
    entry.lastError = failureOf(error, now)
    this.#options.logger.error(
      {
        upstream: entry.url,
        reason: entry.lastError.message,
        code: entry.lastError.code,
        nextAttempt: new Date(entry.nextAttemptAt).toISOString(),
        demotedUntil: new Date(entry.demotedUntil).toISOString(),
      },
      'upstream served invalid data: rejected, upstream demoted',
    )
  }

  /** Reads the cut of every upstream but the current one that may be asked now (for readiness and failover), without retries. */
  async probe(signal: AbortSignal): Promise<void> {
    const now = Date.now()
    await Promise.all(
      this.entries
        .filter((entry) => entry !== this.#current && entry.available(now))
        .map(async (entry) => {
          const started = Date.now()
          try {
            const api = entry.api ?? (await this.#discover(entry, signal))
            entry.cut = { heads: await api.cut(undefined, signal), at: Date.now() }
            this.contact(entry)
            entry.failures = 0
          } catch (error) {
            if (signal.aborted) return
            if (isTransient(error)) this.failed(entry, error, 'probe', started)
            else if (!(error instanceof UpstreamRefusedError)) this.demote(entry, error)
          }
        }),
    )
  }

  /**
   * Moves to a healthy upstream whose last-read cut is more than `maxLag` heights ahead of the
   * current one's on some chain (the current upstream fell behind, or is stuck). True when it moved.
   */
  preferAhead(maxLag: number): boolean {
    const current = this.#current
    const behind = current?.cut?.heads
    if (current === undefined || behind === undefined) return false
    const now = Date.now()
    const ahead = this.entries.find((entry) => {
      if (entry === current || !entry.available(now) || entry.demotedUntil > now || entry.failures > 0 || entry.api === undefined)
        return false
      const heads = entry.cut?.heads
      if (heads === undefined) return false
      return [...heads].some(([chain, head]) => head.height - (behind.get(chain)?.height ?? 0) > maxLag)
    })
    if (ahead === undefined) return false
    this.#switchTo(ahead, 'another upstream is ahead of it by more than the lag allowed')
    return true
  }

  /** Every upstream's figures. */
  status(): UpstreamStatus[] {
    const now = Date.now()
    return this.entries.map((entry) => entry.status(now, entry === this.#current))
  }

  /**
   * The upstream to ask now, reached: the current one while it is available and not demoted, else
   * the first such in order, else a demoted one; when none is available, waits for the first to be.
   * Failures to reach one are handled as those of any request.
   */
  async choose(signal: AbortSignal): Promise<UpstreamEntry> {
    for (;;) {
      const pick = await this.#pick(signal)
      if (pick.api === undefined) {
        const started = Date.now()
        try {
          await this.#discover(pick, signal)
        } catch (error) {
          if (signal.aborted) throw new IngestStoppedError()
          if (isTransient(error)) this.failed(pick, error, 'discovery', started)
          else if (!(error instanceof UpstreamRefusedError)) this.demote(pick, error)
          continue
        }
      }
      this.#select(pick)
      return pick
    }
  }

  // The upstream to ask now, reached or not (see `choose`); waits while none is available.
  async #pick(signal: AbortSignal): Promise<UpstreamEntry> {
    for (;;) {
      if (signal.aborted) throw new IngestStoppedError()
      const now = Date.now()
      const candidates = this.entries.filter((entry) => entry.refused === undefined)
      if (candidates.length === 0) throw this.#allRefused()
      const healthy = (entry: UpstreamEntry): boolean => entry.available(now) && entry.demotedUntil <= now
      const current = this.#current
      const pick =
        (current !== undefined && healthy(current) ? current : undefined) ??
        candidates.find(healthy) ??
        candidates.find((entry) => entry.available(now))
      if (pick !== undefined) return pick
      await pause(Math.max(1, Math.min(...candidates.map((entry) => entry.nextAttemptAt)) - now), signal)
    }
  }

  // Makes `entry` (reached) the current upstream, logging a failover from another one.
  #select(entry: UpstreamEntry): void {
    const current = this.#current
    if (entry !== current) this.#switchTo(entry, current?.lastError?.message ?? 'unavailable')
  }

  #switchTo(next: UpstreamEntry, reason: string): void {
    const previous = this.#current
    this.#current = next
    if (previous === undefined) return
    this.failovers += 1
    this.#options.logger.warn({ upstream: previous.url, next: next.url, reason }, 'failing over to another upstream')
  }

  // Discovery of one upstream; a refusal marks it refused for good (and is thrown).
  async #discover(entry: UpstreamEntry, signal: AbortSignal): Promise<UpstreamApi> {
    const options = this.#options
    try {
      const target = await discoverUpstream(entry.url, { network: options.network, profile: options.profile, signal, http: options.http })
      entry.api = new UpstreamApi(target, options.http, options.checkResponses)
      this.contact(entry)
      options.logger.info(
        { upstream: entry.url, network: target.network, profile: target.profile, version: target.nodeVersion },
        'upstream reached',
      )
      return entry.api
    } catch (error) {
      if (error instanceof UpstreamRefusedError) {
        entry.refused = error
        entry.lastError = failureOf(error, Date.now())
        options.logger.error({ upstream: entry.url, reason: error.message, code: error.code }, 'upstream refused: it is never used')
      }
      throw error
    }
  }

  // Every upstream was refused: the first one's reason stands for all.
  #allRefused(): Error {
    return this.entries[0]?.refused ?? new IngestStoppedError()
  }
}
