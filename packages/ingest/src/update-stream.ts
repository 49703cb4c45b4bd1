import type { IncomingMessage } from 'node:http'
import { EventStreamParser, isTransient, type ServerSentEvent } from '@weft/api'
import { decodeHash } from '@weft/hash-text'
import { pause } from './backoff.js'
import type { IngestContext } from './context.js'
import { IngestStoppedError } from './errors.js'
import type { UpstreamEntry } from './upstream-entry.js'

/** A block an upstream announced on its header update stream. */
export interface Announcement {
  readonly chain: number
  readonly height: number
  readonly hash: Buffer
}

/**
 * How a stream ended: by itself (`ended`: how many events it gave, whether it broke the contract,
 * how long it was open in ms), closed by ingest to be opened on the upstream in use (`dropped`), or
 * never opened because the upstream does not serve one (`refused`).
 */
export type StreamEnd =
  | { readonly kind: 'ended'; readonly events: number; readonly bad: boolean; readonly lived: number }
  | { readonly kind: 'dropped'; readonly events: number }
  | { readonly kind: 'refused' }

/** When the stream is opened again after it ended: in `delayMs`, after `attempt` fruitless streams in a row. */
export interface StreamRetry {
  readonly delayMs: number
  readonly attempt: number
}

/** What the stream tells its owner, which decides when it is opened again. */
export interface UpdateStreamHandlers {
  announce(announcement: Announcement): void
  /** The stream (re)connected: what was announced while it was down is unknown. */
  connected(entry: UpstreamEntry): void
  /** The open stream sent a byte (an event or a keep-alive comment). */
  heard(): void
  /** The stream ended or was refused: answers when to open it again. */
  ended(end: StreamEnd): StreamRetry
}

// How one opened stream ended, as `#read` tells it.
interface StreamRead {
  readonly reason: string
  readonly events: number
  readonly bad: boolean
  readonly lived: number
}

/**
 * The current upstream's header update stream (`{base}/header/updates`), kept open: reconnects
 * when it ends, breaks, stays silent past `streamIdleTimeout` (not even a keep-alive comment), or
 * the pool switched to another upstream. Failures to connect count against the upstream like
 * failed requests (backoff, failover, a warn line). When to open it again after it ended is the
 * owner's decision (`handlers.ended`); an event past the parser's bound demotes its upstream.
 */
export class UpdateStream {
  /** Whether a stream is open now. */
  connected = false
  readonly #ctx: IngestContext
  readonly #handlers: UpdateStreamHandlers
  #drop: (() => void) | undefined
  #streaming: UpstreamEntry | undefined

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
      let read: StreamRead
      try {
        const res = await this.#ctx.http.stream({
          url: entry.api!.headerUpdatesUrl,
          accept: 'text/event-stream',
          signal: AbortSignal.any([signal, local.signal]),
        })
        pool.contact(entry)
        this.#streaming = entry
        this.connected = true
        this.#handlers.connected(entry)
        read = await this.#read(res, entry, local.signal, started)
      } catch (error) {
        if (signal.aborted) return
        if (local.signal.aborted) continue
        if (isTransient(error)) {
          pool.failed(entry, error, 'update stream', started)
          continue
        }
        // Not a stream this upstream serves: the cut poll carries on without one.
        const { delayMs } = this.#handlers.ended({ kind: 'refused' })
        settings.logger.warn(
          { upstream: entry.url, reason: (error as Error).message, nextAttempt: new Date(Date.now() + delayMs).toISOString() },
          'update stream refused; following by cut polls meanwhile',
        )
        await pause(delayMs, signal).catch(() => undefined)
        continue
      } finally {
        this.connected = false
      }
      const dropped = local.signal.aborted
      const { events, bad, lived } = read
      const retry = this.#handlers.ended(dropped ? { kind: 'dropped', events } : { kind: 'ended', events, bad, lived })
      if (signal.aborted) return
      if (dropped) continue
      settings.logger.warn(
        {
          upstream: entry.url,
          reason: read.reason,
          events,
          openMs: lived,
          attempt: retry.attempt,
          delayMs: retry.delayMs,
          nextAttempt: new Date(Date.now() + retry.delayMs).toISOString(),
        },
        'update stream ended; reconnecting',
      )
      await pause(retry.delayMs, signal).catch(() => undefined)
    }
  }

  // Reads events until the stream ends, breaks, idles, is dropped or breaks the contract (an event
  // past the parser's bound demotes the upstream); resolves with how it ended. `started`: when it was asked for.
  #read(res: IncomingMessage, entry: UpstreamEntry, dropped: AbortSignal, started: number): Promise<StreamRead> {
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
        this.#handlers.heard()
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
      const value = JSON.parse(data) as { header?: { chainId?: unknown; height?: unknown; hash?: unknown } }
      entry.api!.checkUpdate(value)
      const { header } = value
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
