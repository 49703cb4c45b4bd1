import { errorCode } from '@weft/errors'
import { encodeHash } from '@weft/hash-text'
import { CorruptStoreError, StoreClosedError } from '@weft/store'
import { backoffDelay, pause } from './backoff.js'
import { createContext, type IngestContext } from './context.js'
import { copy } from './copy.js'
import { IngestStoppedError } from './errors.js'
import { followStep, sweepTips } from './follow-step.js'
import { InsertRate } from './insert-rate.js'
import { type IngestOptions, type IngestSettings, resolveIngestOptions } from './options.js'
import { type Wanted, want } from './reach.js'
import { type IngestPhase, type IngestStatus, readiness } from './status.js'
import { type Announcement, UpdateStream } from './update-stream.js'

/** A running ingest: see `createIngest`. */
export interface Ingest {
  /** Reaches every upstream (one of another network stops the start: thrown), then copies and follows in the background. */
  start(): Promise<void>
  /** Cancels the requests, closes the event stream and waits for the write in progress; the store stays open. Idempotent. */
  stop(): Promise<void>
  /** Settles when ingest ends: after `stop()`, after the copy when `follow` is false, or rejected by a store failure. */
  readonly done: Promise<void>
  /** The figures of this moment: phase, readiness, lag per chain, upstreams, rates and counts. */
  status(): IngestStatus
}

// Announcements kept while a step runs; past this many, they are dropped for one read of the cut.
const maxAnnounced = 10_000
// Poll intervals without a new block or an announcement after which the upstream counts as quiet:
// then every chain's tip is swept once for orphans written late (see `sweepTips`).
const quietPolls = 3

/**
 * Pulls blocks from the upstreams into the store (opened with `cutPolicy: 'adopted'`): copies by
 * pages up to the upstream's cut, adopts that cut, then follows the upstream's header update
 * stream (reading its cut while the stream is silent or broken), so that the store's cut is the
 * upstream's. Nothing is fetched before `start()`.
 */
export function createIngest(options: IngestOptions): Ingest {
  return new IngestRunner(resolveIngestOptions(options))
}

class IngestRunner implements Ingest {
  readonly done: Promise<void>
  readonly #settings: IngestSettings
  readonly #controller = new AbortController()
  readonly #ctx: IngestContext
  readonly #rate = new InsertRate()
  readonly #unsubscribe: () => void
  #phase: IngestPhase = 'starting'
  #announced: Wanted = new Map()
  #announcedCount = 0
  #cutDirty = false
  #needCopy = true
  // A copy or a sweeping step wrote blocks since the last sweep of every chain's tip.
  #sweepDue = false
  // The upstream was quiet with a sweep due: sweep the tips at the next turn of the loop.
  #quietSweep = false
  #lastActivityAt = 0
  #wake: (() => void) | undefined
  #stream: UpdateStream | undefined
  #probing = false
  #running: Promise<void> | undefined
  #settle!: { resolve: () => void; reject: (error: unknown) => void }

  constructor(settings: IngestSettings) {
    this.#settings = settings
    this.#ctx = createContext(settings, this.#controller.signal)
    this.done = new Promise((resolve, reject) => {
      this.#settle = { resolve, reject }
    })
    // A caller that never looks at `done` must not see an unhandled rejection.
    this.done.catch(() => undefined)
    // The status counts every block the store writes; while following, each is told as an event.
    this.#unsubscribe = settings.store.subscribe((event) => {
      if (event.type !== 'inserted') return
      this.#rate.count()
      this.#lastActivityAt = Date.now()
      const { header } = event
      if (this.#phase === 'following')
        settings.onEvent?.({ type: 'inserted', chain: header.chainId, height: header.height, hash: encodeHash(header.hash) })
    })
  }

  async start(): Promise<void> {
    if (this.#running !== undefined || this.#controller.signal.aborted) return
    this.#running = Promise.resolve()
    try {
      await this.#ctx.pool.discoverAll(this.#controller.signal)
    } catch (error) {
      this.#release()
      this.#settle.reject(error)
      throw error
    }
    this.#running = this.#run().then(
      () => this.#settle.resolve(),
      (error: unknown) => {
        this.#phase = 'failed'
        this.#settings.logger.error({ reason: (error as Error).message, code: errorCode(error) }, 'ingest stopped by a failure')
        this.#settle.reject(error)
      },
    )
  }

  async stop(): Promise<void> {
    this.#controller.abort()
    this.#wake?.()
    if (this.#running === undefined) {
      this.#release()
      this.#settle.resolve()
      return
    }
    await this.#running
  }

  status(): IngestStatus {
    const { store, pool } = this.#ctx
    const settings = this.#settings
    const upstreams = pool.status()
    const { ready, lag } = readiness({
      cut: store.cut(),
      heads: store.heads(),
      upstreams,
      maxLag: settings.maxLag,
      staleAfter: settings.staleAfter,
      now: Date.now(),
    })
    return {
      phase: this.#phase,
      ready: ready && this.#phase !== 'stopped' && this.#phase !== 'failed',
      lag,
      maxLag: settings.maxLag,
      staleAfter: settings.staleAfter,
      upstreams,
      inserted: this.#rate.total,
      blocksPerSecond: this.#rate.blocksPerSecond(),
      retries: pool.retries,
      failovers: pool.failovers,
      rejected: this.#ctx.rejected,
    }
  }

  async #run(): Promise<void> {
    const { signal } = this.#ctx
    const ticker = setInterval(() => this.#tick(), this.#settings.pollInterval).unref()
    let streaming: Promise<void> | undefined
    if (this.#settings.follow) {
      this.#stream = new UpdateStream(this.#ctx, {
        announce: (announcement) => this.#onAnnounce(announcement),
        connected: (_entry, afterEvents) => this.#onConnected(afterEvents),
      })
      streaming = this.#stream.run()
    }
    try {
      let failures = 0
      while (!signal.aborted) {
        try {
          if (this.#needCopy) {
            if (await this.#copy()) return
          } else if (this.#announcedCount > 0 || this.#cutDirty) {
            await this.#step()
          } else if (this.#quietSweep) {
            this.#quietSweep = false
            this.#sweepDue = false
            await sweepTips(this.#ctx)
          } else {
            await new Promise<void>((resolve) => {
              this.#wake = resolve
            })
          }
          failures = 0
        } catch (error) {
          if (signal.aborted || error instanceof IngestStoppedError) return
          if (this.#settings.failFast || error instanceof StoreClosedError || error instanceof CorruptStoreError) throw error
          failures += 1
          try {
            await this.#recover(error, failures)
          } catch (stopped) {
            // stop() during the backoff is a stop, not a failure.
            if (stopped instanceof IngestStoppedError) return
            throw stopped
          }
        }
      }
    } finally {
      this.#phase = this.#phase === 'failed' ? 'failed' : 'stopped'
      clearInterval(ticker)
      this.#controller.abort()
      await streaming?.catch(() => undefined)
      this.#release()
    }
  }

  // One copy up to the upstream's cut; true when ingest is done (no following).
  async #copy(): Promise<boolean> {
    const { network } = this.#ctx
    const settings = this.#settings
    this.#needCopy = false
    this.#phase = 'copying'
    const started = Date.now()
    const inserted = await copy(this.#ctx, {
      onPage: (page) => settings.onEvent?.({ type: 'page', ...page }),
      onProgress: (done, total) => settings.onProgress?.(done, total),
    })
    this.#phase = 'following'
    this.#sweepDue = true
    this.#lastActivityAt = Date.now()
    settings.logger.info({ upstream: this.#ctx.pool.current?.url, inserted, ms: Date.now() - started }, 'copied up to the upstream cut')
    settings.onEvent?.({ type: 'synced', inserted, chains: network.graphs[0]?.graph.size ?? 0 })
    return !settings.follow
  }

  // One follow step on what was announced; announcements name every block written only when the
  // cut needed no read of its own (the stream was open throughout and nothing was dropped).
  async #step(): Promise<void> {
    const announced = this.#announced
    const announcedAll = !this.#cutDirty
    this.#announced = new Map()
    this.#announcedCount = 0
    this.#cutDirty = false
    const { outcome } = await followStep(this.#ctx, announced, announcedAll)
    if (outcome === 'far') this.#needCopy = true
    else if (outcome === 'swept') this.#sweepDue = true
  }

  // After a failed round: a copy is due, after a backoff that grows with consecutive failures.
  async #recover(error: unknown, failures: number): Promise<void> {
    const settings = this.#settings
    this.#needCopy = true
    const delay = backoffDelay(failures, { baseMs: settings.retryDelay, maxMs: settings.maxRetryDelay }, Math.random())
    settings.logger.warn(
      {
        upstream: this.#ctx.pool.current?.url,
        reason: error instanceof Error ? error.message : String(error),
        code: errorCode(error),
        attempt: failures,
        nextAttempt: new Date(Date.now() + delay).toISOString(),
      },
      'ingest round failed; copying again after a backoff',
    )
    await pause(delay, this.#ctx.signal)
  }

  #onAnnounce(announcement: Announcement): void {
    if (this.#announcedCount >= maxAnnounced) {
      this.#announced = new Map()
      this.#announcedCount = 0
      this.#cutDirty = true
    } else {
      want(this.#announced, announcement.chain, announcement)
      this.#announcedCount += 1
    }
    this.#lastActivityAt = Date.now()
    this.#wake?.()
  }

  // What was announced while the stream was down is unknown. After a stream that gave events, copy
  // again from a little below the store's blocks; during a copy, once it ends, since it may have read
  // some chains before the gap. After one that gave none, the steps already read the cut and swept
  // (nothing was relied on that could be missed): the next step does so again. A copy per connection
  // would cost an upstream whose stream answers and ends at once a copy each time.
  #onConnected(afterEvents: boolean): void {
    if (afterEvents && (this.#phase === 'following' || this.#phase === 'copying')) this.#needCopy = true
    else this.#cutDirty = true
    this.#wake?.()
  }

  // The poll: reads the cut while the stream is silent or broken, sweeps the tips once the upstream
  // is quiet, reopens the stream on the upstream in use, and probes the other upstreams.
  #tick(): void {
    const stream = this.#stream
    const now = Date.now()
    if (
      this.#phase === 'following' &&
      (stream === undefined || !stream.connected || now - stream.lastByteAt >= this.#settings.pollInterval)
    ) {
      this.#cutDirty = true
      this.#wake?.()
    }
    if (this.#phase === 'following' && this.#sweepDue && now - this.#lastActivityAt >= quietPolls * this.#settings.pollInterval) {
      this.#quietSweep = true
      this.#wake?.()
    }
    if (stream?.connected && stream.upstream !== this.#ctx.pool.current) stream.reconnect()
    if (this.#probing) return
    this.#probing = true
    void this.#ctx.pool
      .probe(this.#ctx.signal)
      .then(() => {
        // A current upstream that fell behind another is left for it: the cut is read from there next.
        if (this.#ctx.pool.preferAhead(this.#settings.maxLag)) {
          this.#cutDirty = true
          this.#wake?.()
        }
      })
      .finally(() => {
        this.#probing = false
      })
  }

  #release(): void {
    this.#unsubscribe()
    this.#ctx.http.close()
  }
}
