import type { IncomingMessage } from 'node:http'
import { decodeHash } from '@weft/hash-text'
import { backoffDelay, isTransient, pause } from './backoff.js'
import type { IngestContext } from './context.js'
import { IngestStoppedError } from './errors.js'
import { EventStreamParser, type ServerSentEvent } from './event-stream.js'
import type { UpstreamEntry } from './upstream-entry.js'

/** A block an upstream announced on its header update stream. */
export interface Announcement {
  readonly chain: number
  readonly height: number
  readonly hash: Buffer
}

/** What the stream tells its owner. */
export interface UpdateStreamHandlers {
  announce(announcement: Announcement): void
  /**
   * The stream (re)connected: what was announced while it was down is unknown. `afterEvents`: the
   * stream before this one gave events, so announcements that were relied on may have been lost.
   */
  connected(entry: UpstreamEntry, afterEvents: boolean): void
}

/** How one opened stream ended: why, how many events it gave, whether it broke the contract, and how long it was open (ms). */
interface StreamEnd {
  readonly reason: string
  readonly events: number
  readonly bad: boolean
  readonly lived: number
}

/**
 * The current upstream's header update stream (`{base}/header/updates`), kept open: reconnects
 * when it ends, breaks, stays silent past `streamIdleTimeout` (not even a keep-alive comment), or
 * the pool switched to another upstream. Failures to connect count against the upstream like
 * failed requests (backoff, failover, a warn line). A stream that ends without an event, with one
 * past the parser's bound (which also demotes its upstream), or within `pollInterval` of its start,
 * is opened again after a backoff that doubles per such stream in a row: an upstream whose stream
 * answers and ends at once, with or without an event, is not asked again every `retryDelay` (and,
 * for a stream that gave events, copied from again each time).
 */
export class UpdateStream {
  /** Whether a stream is open now. */
  connected = false
  /** When the open stream last sent a byte (ms since the epoch); 0 before any. */
  lastByteAt = 0
  readonly #ctx: IngestContext
  readonly #handlers: UpdateStreamHandlers
  #drop: (() => void) | undefined
  #streaming: UpstreamEntry | undefined
  // Streams in a row that ended without an event, broke the contract or were short-lived.
  #fruitless = 0
  // Whether the last stream that ended gave an event.
  #gaveEvents = false

  constructor(ctx: IngestContext, handlers: UpdateStreamHandlers) {
    this.#ctx = ctx
    this.#handlers = handlers
  }

  /** The upstream whose stream is open, if any. */
  get upstream(): UpstreamEntry | undefined {
    return this.connected ? this.#streaming : undefined
  }

  /** Ends the open stream; it is opened again on the pool's current upstream. */
  reconnect(): void {
    this.#drop?.()
  }

  /** Keeps a stream open until ingest stops. */
  async run(): Promise<void> {
    const { pool, signal, settings } = this.#ctx
    while (!signal.aborted) {
      let entry: UpstreamEntry
      try {
        entry = await pool.choose(signal)
      } catch (error) {
        if (error instanceof IngestStoppedError) return
        throw error
      }
      const local = new AbortController()
      this.#drop = () => local.abort()
      const started = Date.now()
      let end: StreamEnd
      try {
        const res = await this.#ctx.http.stream(entry.api!.headerUpdatesUrl, {
          accept: 'text/event-stream',
          signal: AbortSignal.any([signal, local.signal]),
        })
        pool.contact(entry)
        this.#streaming = entry
        this.connected = true
        this.lastByteAt = Date.now()
        this.#handlers.connected(entry, this.#gaveEvents)
        end = await this.#read(res, entry, local.signal, started)
        this.#gaveEvents = end.events > 0
      } catch (error) {
        if (signal.aborted) return
        if (local.signal.aborted) continue
        if (isTransient(error)) {
          pool.failed(entry, error, 'update stream', started)
          continue
        }
        // Not a stream this upstream serves: the cut poll carries on without one.
        settings.logger.warn(
          {
            upstream: entry.url,
            reason: (error as Error).message,
            nextAttempt: new Date(Date.now() + settings.maxRetryDelay).toISOString(),
          },
          'update stream refused; following by cut polls meanwhile',
        )
        await pause(settings.maxRetryDelay, signal).catch(() => undefined)
        continue
      } finally {
        this.connected = false
      }
      if (signal.aborted) return
      if (local.signal.aborted) continue
      await pause(this.#reconnectDelay(entry, end), signal).catch(() => undefined)
    }
  }

  // How long to wait before opening the stream again after `end`, logged: `retryDelay` after a
  // stream that gave events for a while, else a backoff that grows with such streams in a row.
  #reconnectDelay(entry: UpstreamEntry, end: StreamEnd): number {
    const { settings } = this.#ctx
    const fruitless = end.bad || end.events === 0 || end.lived < settings.pollInterval
    this.#fruitless = fruitless ? this.#fruitless + 1 : 0
    const delay =
      this.#fruitless === 0
        ? settings.retryDelay
        : backoffDelay(this.#fruitless, { baseMs: settings.retryDelay, maxMs: settings.maxRetryDelay }, Math.random())
    settings.logger.warn(
      {
        upstream: entry.url,
        reason: end.reason,
        events: end.events,
        openMs: end.lived,
        attempt: this.#fruitless,
        delayMs: delay,
        nextAttempt: new Date(Date.now() + delay).toISOString(),
      },
      'update stream ended; reconnecting',
    )
    return delay
  }

  // Reads events until the stream ends, breaks, idles, is dropped or breaks the contract (an event
  // past the parser's bound demotes the upstream); resolves with how it ended. `started`: when it was asked for.
  #read(res: IncomingMessage, entry: UpstreamEntry, dropped: AbortSignal, started: number): Promise<StreamEnd> {
    const { pool, settings } = this.#ctx
    const parser = new EventStreamParser()
    return new Promise((resolve) => {
      let done = false
      let events = 0
      const finish = (reason: string, bad = false): void => {
        if (done) return
        done = true
        clearTimeout(idle)
        dropped.removeEventListener('abort', onDrop)
        res.destroy()
        resolve({ reason, events, bad, lived: Date.now() - started })
      }
      const onDrop = (): void => finish('dropped')
      const idle = setTimeout(() => finish(`no byte for ${settings.streamIdleTimeout} ms`), settings.streamIdleTimeout)
      dropped.addEventListener('abort', onDrop, { once: true })
      res.on('data', (chunk: Buffer) => {
        if (done) return
        idle.refresh()
        this.lastByteAt = Date.now()
        pool.contact(entry)
        let parsed: ServerSentEvent[]
        try {
          parsed = parser.push(chunk)
        } catch (error) {
          pool.demote(entry, error)
          finish((error as Error).message, true)
          return
        }
        events += parsed.length
        for (const event of parsed) if (event.event === 'BlockHeader') this.#announce(event.data, entry)
      })
      res.on('end', () => finish('the upstream ended the stream'))
      res.on('error', (error) => finish(`the connection failed: ${error.message}`))
      res.on('close', () => finish('the connection closed'))
    })
  }

  #announce(data: string, entry: UpstreamEntry): void {
    try {
      entry.api!.checkUpdate(data)
      const { header } = JSON.parse(data) as { header?: { chainId?: unknown; height?: unknown; hash?: unknown } }
      const { chainId, height, hash } = header ?? {}
      if (typeof chainId !== 'number' || typeof height !== 'number' || typeof hash !== 'string')
        throw new Error('no chainId, height and hash')
      this.#handlers.announce({ chain: chainId, height, hash: decodeHash(hash) })
    } catch (error) {
      this.#ctx.settings.logger.warn(
        { upstream: entry.url, reason: (error as Error).message },
        'update event ignored: it does not name a block',
      )
    }
  }
}
