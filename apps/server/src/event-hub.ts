import type { ServerResponse } from 'node:http'

/** The keep-alive comment of an idle event stream. */
export const keepAliveFrame: Buffer = Buffer.from(':\n\n')

/** Builds the one frame of an event: `event:<name>\ndata:<json>\n\n`, from JSON pieces already serialised. */
export function eventFrame(name: string, dataParts: ReadonlyArray<Buffer | string>): Buffer {
  const parts: Buffer[] = [Buffer.from(`event:${name}\ndata:`)]
  for (const part of dataParts) parts.push(typeof part === 'string' ? Buffer.from(part) : part)
  parts.push(Buffer.from('\n\n'))
  return Buffer.concat(parts)
}

/** Settings of a hub. */
export interface EventHubOptions {
  /** Milliseconds of idle before a keep-alive comment; 0 disables. */
  readonly keepAliveMs: number
  /** Bytes a client may have pending (not yet taken by the kernel) before it is cut off. */
  readonly maxBacklogBytes: number
}

interface Client {
  readonly res: ServerResponse
  readonly keepAlive: NodeJS.Timeout | undefined
}

/**
 * Fans frames out to event-stream clients. Every client is written the same Buffer (no per-client
 * copy); a client whose pending bytes pass the bound is destroyed, and it reconnects by contract.
 */
export class EventHub {
  readonly #clients = new Set<Client>()
  readonly #options: EventHubOptions
  #closed = false

  constructor(options: EventHubOptions) {
    this.#options = options
  }

  /** Number of connected clients. */
  get size(): number {
    return this.#clients.size
  }

  /** Starts an event stream on `res`: status 200, headers flushed at once, no initial event. */
  attach(res: ServerResponse): void {
    if (this.#closed) {
      res.destroy()
      return
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' })
    res.flushHeaders()
    const keepAliveMs = this.#options.keepAliveMs
    const client: Client = {
      res,
      keepAlive: keepAliveMs > 0 ? setTimeout(() => this.#write(client, keepAliveFrame), keepAliveMs).unref() : undefined,
    }
    this.#clients.add(client)
    res.once('close', () => this.#remove(client))
  }

  /** Writes one frame to every client. */
  publish(frame: Buffer): void {
    for (const client of this.#clients) this.#write(client, frame)
  }

  /** Ends every stream and refuses new ones (shutdown); each connection is closed once its stream's end is written. */
  close(): void {
    this.#closed = true
    for (const client of this.#clients) {
      this.#remove(client)
      // A kept-alive connection would otherwise go idle only after the server's one sweep of idle
      // connections at shutdown, and then hold the shutdown for its whole grace period.
      client.res.end(() => client.res.destroy())
    }
  }

  #write(client: Client, frame: Buffer): void {
    const { res } = client
    if (res.destroyed || res.writableEnded) {
      this.#remove(client)
      return
    }
    const accepted = res.write(frame)
    if (!accepted && res.writableLength > this.#options.maxBacklogBytes) {
      this.#remove(client)
      res.destroy()
      return
    }
    // Re-arms the idle timer, also after it fired: a comment goes out only after keepAliveMs of silence.
    client.keepAlive?.refresh()
  }

  #remove(client: Client): void {
    if (client.keepAlive !== undefined) clearTimeout(client.keepAlive)
    this.#clients.delete(client)
  }
}
