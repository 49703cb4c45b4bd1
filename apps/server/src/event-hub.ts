import type { ServerResponse } from 'node:http'

/** The keep-alive comment of an idle event stream. */
export const keepAliveFrame: Buffer = Buffer.from(':\n\n')

/** `frame` as one chunk of HTTP/1.1 chunked transfer coding: `<length in hex>\r\n<frame>\r\n`. */
export function chunkOf(frame: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${frame.length.toString(16)}\r\n`), frame, crlf])
}

const crlf = Buffer.from('\r\n')
const keepAliveChunk = chunkOf(keepAliveFrame)

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
  /** Told what the hub does, for the metrics; absent: nothing is told. */
  readonly observer?: EventHubObserver | undefined
}

/** What a hub tells its observer. */
export interface EventHubObserver {
  /** One event was written to `clients` clients. */
  sent(clients: number): void
  /** A client fell more than the backlog bound behind and was cut off. */
  cutOff(): void
}

interface Client {
  readonly res: ServerResponse
  readonly keepAlive: NodeJS.Timeout | undefined
}

/**
 * Fans frames out to event-stream clients. Every client is written the same Buffer (no per-client
 * copy); a client whose pending bytes pass the bound is destroyed, and it reconnects by contract.
 *
 * Frames published in one job (the store announces a whole batch of blocks in one) are written
 * together when it ends (a microtask), as one chunk: a write per client per batch, not per block.
 * The writer's cost of a write hardly depends on its size (10,000 loopback writes took 35 ms here
 * for 350 bytes each and for 35,000), so a batch of blocks (a window copied by ingest, a reorg)
 * costs one pass over the clients instead of one per block. With 10,000 clients a pass takes 35 to
 * 90 ms here (the most when the clients' reader shares the machine), which per block would hold an
 * ingest to a dozen blocks a second. The microtask runs before the writer's caller resumes, so a
 * block is on its way to every client before the next one is inserted, as when each frame was
 * written at once.
 *
 * The chunk is framed once per write and written straight to each client's socket: with a thousand
 * clients, `res.write` (which frames the chunk again for every client and hands the socket four
 * buffers) cost a fifth more per client. A response that is not in the plain state this needs (not
 * chunked, as for an HTTP/1.0 client, or with output of its own still queued) is written through
 * `res.write` instead.
 */
export class EventHub {
  readonly #clients = new Set<Client>()
  readonly #options: EventHubOptions
  // Frames published since the last write, and the pending write that takes them.
  #pending: Buffer[] = []
  #scheduled = false
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
    // Frames published before this client came are written to the clients that were there, first.
    this.#writePending()
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' })
    res.flushHeaders()
    const keepAliveMs = this.#options.keepAliveMs
    const client: Client = {
      res,
      keepAlive: keepAliveMs > 0 ? setTimeout(() => this.#write(client, keepAliveFrame, keepAliveChunk), keepAliveMs).unref() : undefined,
    }
    this.#clients.add(client)
    res.once('close', () => this.#remove(client))
  }

  /** Writes one frame to every client, together with the other frames published before the current job ends. */
  publish(frame: Buffer): void {
    if (this.#clients.size === 0) return
    this.#pending.push(frame)
    if (this.#scheduled) return
    this.#scheduled = true
    queueMicrotask(() => this.#writePending())
  }

  /** Cuts every client off, as if each had passed the backlog bound (they reconnect, by contract); new ones are welcome. */
  cutAll(): void {
    this.#dropPending()
    for (const client of this.#clients) {
      this.#options.observer?.cutOff()
      this.#remove(client)
      client.res.destroy()
    }
  }

  /** Ends every stream and refuses new ones (shutdown); each connection is closed once its stream's end is written. */
  close(): void {
    this.#writePending()
    this.#closed = true
    for (const client of this.#clients) {
      this.#remove(client)
      // A kept-alive connection would otherwise go idle only after the server's one sweep of idle
      // connections at shutdown, and then hold the shutdown for its whole grace period.
      client.res.end(() => client.res.destroy())
    }
  }

  // Writes the frames published since the last write to every client, as one chunk.
  #writePending(): void {
    const frames = this.#pending
    this.#dropPending()
    if (frames.length === 0 || this.#clients.size === 0) return
    for (let index = 0; index < frames.length; index++) this.#options.observer?.sent(this.#clients.size)
    const frame = frames.length === 1 ? (frames[0] as Buffer) : Buffer.concat(frames)
    const chunk = chunkOf(frame)
    for (const client of this.#clients) this.#write(client, frame, chunk)
  }

  #dropPending(): void {
    this.#scheduled = false
    this.#pending = []
  }

  #write(client: Client, frame: Buffer, chunk: Buffer): void {
    const { res } = client
    const { socket } = res
    if (res.destroyed || res.writableEnded || socket?.destroyed === true) {
      this.#remove(client)
      return
    }
    // Nothing of the response's own is queued ahead (its writable length is the socket's alone).
    const direct = socket !== null && res.chunkedEncoding && res.writableLength === socket.writableLength
    const accepted = direct ? socket.write(chunk) : res.write(frame)
    if (!accepted && res.writableLength > this.#options.maxBacklogBytes) {
      this.#options.observer?.cutOff()
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
