import { errorCode } from '@weft/errors'
import { encodeHash } from '@weft/hash-text'
import { CorruptStoreError, StoreClosedError, StoreFullError } from '@weft/store'
import { createContext, type IngestContext } from './context.js'
import { IngestStoppedError } from './errors.js'
import { InsertRate } from './insert-rate.js'
import { type IngestOptions, type IngestSettings, resolveIngestOptions } from './options.js'
import { initialSchedule, nextWork, reduce, type Schedule, type ScheduleEvent, streamRetry } from './schedule.js'
import { type IngestStatus, readiness } from './status.js'
import { type StreamEnd, type StreamRetry, UpdateStream } from './update-stream.js'
import { type RunnableWork, reportCopied, runWork } from './work.js'

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
  // What the scheduling decides on: changed only by `#apply`, read by `nextWork`.
  #schedule: Schedule
  #wake: (() => void) | undefined
  #stream: UpdateStream | undefined
  #probing = false
  #running: Promise<void> | undefined
  #settle!: { resolve: () => void; reject: (error: unknown) => void }

  constructor(settings: IngestSettings) {
    this.#settings = settings
    this.#ctx = createContext(settings, this.#controller.signal)
    this.#schedule = initialSchedule(settings)
    this.done = new Promise((resolve, reject) => {
      this.#settle = { resolve, reject }
    })
    // A caller that never looks at `done` must not see an unhandled rejection.
    this.done.catch(() => undefined)
    // The status counts every block the store writes; while following, each is told as an event.
    this.#unsubscribe = settings.store.subscribe((event) => {
      if (event.type !== 'inserted') return
      this.#rate.count()
      const { header } = event
      if (this.#schedule.phase === 'following')
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
        if (this.#schedule.phase !== 'failed') this.#apply({ type: 'failed', at: Date.now(), fatal: true, random: 0 })
        this.#settings.logger.error({ reason: (error as Error).message, code: errorCode(error) }, 'ingest stopped by a failure')
        this.#settle.reject(error)
      },
    )
  }

  async stop(): Promise<void> {
    this.#controller.abort()
    if (this.#running === undefined) {
      // Never started: its phase stays 'starting'.
      this.#release()
      this.#settle.resolve()
      return
    }
    this.#apply({ type: 'stopped', at: Date.now() })
    await this.#running
  }

  status(): IngestStatus {
    const { store, pool } = this.#ctx
    const settings = this.#settings
    const upstreams = pool.status()
    const { phase } = this.#schedule
    const { ready, lag } = readiness({
      cut: store.cut(),
      heads: store.heads(),
      upstreams,
      maxLag: settings.maxLag,
      staleAfter: settings.staleAfter,
      now: Date.now(),
    })
    return {
      phase,
      ready: ready && phase !== 'stopped' && phase !== 'failed',
      lag,
      maxLag: settings.maxLag,
      staleAfter: settings.staleAfter,
      upstreams,
      inserted: this.#rate.total,
      blocksPerSecond: this.#rate.blocksPerSecond(),
      retries: pool.retries,
      failovers: pool.failovers,
      rejected: this.#ctx.rejected,
      refusals: new Map(this.#ctx.refusals),
    }
  }

  // Applies what happened to the schedule, and wakes the loop to decide again.
  #apply(event: ScheduleEvent): void {
    this.#schedule = reduce(this.#schedule, event)
    this.#wake?.()
  }

  // The loop: runs what `nextWork` gives, one piece at a time, until it gives the end.
  async #run(): Promise<void> {
    const { signal } = this.#ctx
    const ticker = setInterval(() => this.#tick(), this.#settings.pollInterval).unref()
    let streaming: Promise<void> | undefined
    if (this.#settings.follow) {
      this.#stream = new UpdateStream(this.#ctx, {
        announce: (announcement) => this.#apply({ type: 'announce', at: Date.now(), announcement }),
        connected: () => this.#apply({ type: 'connected', at: Date.now() }),
        heard: () => this.#apply({ type: 'heard', at: Date.now() }),
        ended: (end) => this.#streamEnded(end),
      })
      streaming = this.#stream.run()
    }
    try {
      for (;;) {
        const work = nextWork(this.#schedule, Date.now())
        if (work.kind === 'end' || signal.aborted) return
        if (work.kind === 'wait') await this.#waitUntil(work.until)
        else await this.#perform(work)
      }
    } finally {
      this.#apply({ type: 'stopped', at: Date.now() })
      clearInterval(ticker)
      this.#controller.abort()
      await streaming?.catch(() => undefined)
      this.#release()
    }
  }

  // Runs one piece of work; its end or failure goes to the schedule. A failure that ends ingest is thrown.
  async #perform(work: RunnableWork): Promise<void> {
    const started = Date.now()
    this.#apply({ type: 'started', at: started, work: work.kind })
    try {
      const result = await runWork(this.#ctx, work)
      this.#apply({ type: 'done', at: Date.now(), ...result })
      if (work.kind === 'copy') reportCopied(this.#ctx, result.wrote, Date.now() - started)
    } catch (error) {
      // stop() is a stop, not a failure.
      if (this.#ctx.signal.aborted || error instanceof IngestStoppedError) {
        this.#apply({ type: 'stopped', at: Date.now() })
        return
      }
      // Our own disk is full: no upstream's fault. The round ends once the store takes writes again,
      // and the copy after it goes on from the blocks stored.
      if (error instanceof StoreFullError) await this.#waitForStore(error)
      if (this.#ctx.signal.aborted) return
      const fatal = error instanceof StoreClosedError || error instanceof CorruptStoreError
      this.#apply({ type: 'failed', at: Date.now(), fatal, random: Math.random() })
      if (this.#schedule.phase === 'failed') throw error
      this.#settings.logger.warn(
        {
          upstream: this.#ctx.pool.current?.url,
          reason: error instanceof Error ? error.message : String(error),
          code: errorCode(error),
          attempt: this.#schedule.failures,
          nextAttempt: new Date(this.#schedule.retryAt).toISOString(),
        },
        'ingest round failed; copying again after a backoff',
      )
    }
  }

  // Resolves once the store takes writes again (a closed store: the next round meets it), or at stop().
  async #waitForStore(error: StoreFullError): Promise<void> {
    this.#settings.logger.warn(
      { folder: error.path, freeBytes: error.freeBytes },
      'the store is full: ingest waits for it to take writes again',
    )
    const stopped = new Promise<void>((resolve) => this.#ctx.signal.addEventListener('abort', () => resolve(), { once: true }))
    await Promise.race([this.#ctx.store.whenWritable().catch(() => undefined), stopped])
    if (!this.#ctx.signal.aborted) this.#settings.logger.info({ folder: error.path }, 'the store takes writes again: ingest goes on')
  }

  // Resolves at `until` (never, when infinite), at the next event, or at stop().
  #waitUntil(until: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = Number.isFinite(until) ? setTimeout(() => this.#wake?.(), Math.max(0, until - Date.now())) : undefined
      this.#wake = () => {
        clearTimeout(timer)
        this.#wake = undefined
        resolve()
      }
      if (this.#ctx.signal.aborted) this.#wake()
    })
  }

  // The stream ended: the schedule decides when it is opened again.
  #streamEnded(end: StreamEnd): StreamRetry {
    const at = Date.now()
    if (end.kind === 'refused') this.#apply({ type: 'streamRefused', at })
    else if (end.kind === 'dropped') this.#apply({ type: 'streamDropped', at, events: end.events })
    else this.#apply({ type: 'streamEnded', at, events: end.events, bad: end.bad, lived: end.lived, random: Math.random() })
    return streamRetry(this.#schedule, at)
  }

  // The poll: the schedule's tick (the cut read while the stream is silent or broken, the tips swept
  // once the upstream is quiet); reopens the stream on the upstream in use, and probes the others.
  #tick(): void {
    this.#apply({ type: 'tick', at: Date.now() })
    const stream = this.#stream
    if (stream?.connected && stream.upstream !== this.#ctx.pool.current) stream.reconnect()
    if (this.#probing) return
    this.#probing = true
    void this.#ctx.pool
      .probe(this.#ctx.signal)
      .then(() => {
        // A current upstream that fell behind another is left for it: the cut is read from there next.
        if (this.#ctx.pool.preferAhead(this.#settings.maxLag)) this.#apply({ type: 'switched', at: Date.now() })
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
