import type { ServerResponse } from 'node:http'
import { chunkOf, keepAliveFrame } from './event-frames.js'
import type { EventHubOptions } from './hub-options.js'
import { gone, writeReplay } from './stream-replay.js'

const keepAliveChunk = chunkOf(keepAliveFrame)

interface Batch {
  /** The frames of the events announced together. */
  readonly frame: Buffer
  /** When they were announced (`performance.now()`). */
  readonly announcedAt: number
  /** Clients still to be written it. */
  missing: number
}

interface Client {
  readonly res: ServerResponse
  readonly keepAlive: NodeJS.Timeout | undefined
  /** Sequence number of the first batch this client has not been written. */
  next: number
  /** Its place in the hub's ring, while it is in it. */
  index: number
  /** While its replay is written: the frames published meantime, written after it. */
  held?: Buffer[] | undefined
  heldBytes: number
}

/**
 * Clients written in one step of a sweep before the event loop gets a turn: 5 to 15 ms of writes
 * here. A thousand clients (`pnpm bench`'s event-stream figure) are written in one piece.
 */
export const SWEEP_STEP = 1024

/**
 * Fans frames out to event-stream clients. Every client is written the same Buffer (no per-client
 * copy); a client whose pending bytes pass the bound is destroyed, and it reconnects by contract.
 *
 * Frames published in one job (the store announces a whole batch of blocks in one) become one
 * batch when it ends (a microtask), written as one chunk: a write per client per batch, not per
 * block. The writer's cost of a write hardly depends on its size (10,000 loopback writes took 35 ms
 * here for 350 bytes each and for 35,000), so a batch of blocks (a window copied by ingest, a reorg)
 * costs one pass over the clients instead of one per block.
 *
 * A pass over many clients is a sweep in steps of `SWEEP_STEP` clients, with a turn of the event
 * loop between steps, around a ring of clients. A batch published while a sweep runs joins it: the
 * clients the sweep has not reached yet get both batches in one write, and the sweep goes on round
 * the ring until it has written the new batch to the clients it had passed. So every batch reaches
 * every client within one round of the ring from its publish. A pass in one piece held the event
 * loop for 100 to 150 ms with 10,000 clients here (almost all of it in the `write` system calls:
 * the kernel's loopback sends), and inserts, requests and timers waited for the whole pass. With
 * few clients (up to a step) the whole pass is written in the microtask, before the publisher's
 * caller resumes.
 *
 * The chunk is framed once per batch and written straight to each client's socket: with a thousand
 * clients, `res.write` (which frames the chunk again for every client and hands the socket four
 * buffers) cost a fifth more per client. A response that is not in the plain state this needs (not
 * chunked, as for an HTTP/1.0 client, or with output of its own still queued) is written through
 * `res.write` instead.
 */
export class EventHub {
  readonly #options: EventHubOptions
  readonly #sweepStep: number
  // The clients, in the order a sweep visits them; #cursor is where the sweep goes on.
  readonly #ring: Client[] = []
  #cursor = 0
  // Batches not yet written to every client: #batches[i] has sequence number #base + i.
  #batches: Batch[] = []
  #base = 0
  #sweepScheduled = false
  // What a client whose next batch is the key is written: the batches from it to the last, joined.
  readonly #writes = new Map<number, { frame: Buffer; chunk: Buffer }>()
  // Frames published in the current job.
  #pending: Buffer[] = []
  #scheduled = false
  #closed = false

  constructor(options: EventHubOptions) {
    this.#options = options
    this.#sweepStep = options.sweepStep ?? SWEEP_STEP
  }

  /** Number of connected clients. */
  get size(): number {
    return this.#ring.length
  }

  /**
   * Starts an event stream on `res`: status 200, headers flushed at once. Without `replay` no initial
   * event; with it, its frames first (a resumed client's missed events, or the answer that it cannot
   * resume), then every frame published from this call on: the frames published while the replay is
   * written are held for the client, within its backlog bound.
   */
  attach(res: ServerResponse, replay?: AsyncIterable<Buffer> | Iterable<Buffer>): void {
    if (this.#closed) {
      res.destroy()
      return
    }
    // Frames published before this client came go to the clients that were there.
    this.#flushPending()
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' })
    res.flushHeaders()
    const keepAliveMs = this.#options.keepAliveMs
    const client: Client = {
      res,
      keepAlive: keepAliveMs > 0 ? setTimeout(() => this.#write(client, keepAliveFrame, keepAliveChunk), keepAliveMs).unref() : undefined,
      next: this.#head(),
      index: this.#ring.length,
      held: replay === undefined ? undefined : [],
      heldBytes: 0,
    }
    this.#ring.push(client)
    res.once('close', () => this.#remove(client))
    if (replay !== undefined) void this.#replay(client, replay)
  }

  /** Writes one frame to every client, together with the other frames published before the current job ends. */
  publish(frame: Buffer): void {
    if (this.#ring.length === 0) return
    this.#pending.push(frame)
    if (this.#scheduled) return
    this.#scheduled = true
    queueMicrotask(() => this.#flushPending())
  }

  /** Cuts every client off, as if each had passed the backlog bound (they reconnect, by contract); new ones are welcome. */
  cutAll(): void {
    this.#dropPending()
    for (const client of [...this.#ring]) {
      this.#options.observer?.cutOff()
      this.#remove(client)
      client.res.destroy()
    }
    this.#dropBatches()
  }

  /** Ends every stream and refuses new ones (shutdown); each connection is closed once its stream's end is written. */
  close(): void {
    this.#flushPending()
    while (this.#behind() > 0 && this.#ring.length > 0) this.#step(this.#ring.length)
    this.#closed = true
    for (const client of [...this.#ring]) {
      this.#remove(client)
      // A kept-alive connection would otherwise go idle only after the server's one sweep of idle
      // connections at shutdown, and then hold the shutdown for its whole grace period.
      client.res.end(() => client.res.destroy())
    }
  }

  // Clients that miss the last batch (so any batch): the sweep runs while there are any.
  #behind(): number {
    return this.#batches.at(-1)?.missing ?? 0
  }

  // Sequence number of the next batch.
  #head(): number {
    return this.#base + this.#batches.length
  }

  // Makes the frames published in the current job a batch, and starts its sweep with a first step.
  #flushPending(): void {
    const frames = this.#pending
    this.#dropPending()
    if (frames.length === 0 || this.#ring.length === 0) return
    for (let index = 0; index < frames.length; index++) this.#options.observer?.sent(this.#ring.length)
    this.#batches.push({
      frame: frames.length === 1 ? (frames[0] as Buffer) : Buffer.concat(frames),
      announcedAt: performance.now(),
      missing: this.#ring.length,
    })
    this.#writes.clear()
    this.#step(this.#sweepStep)
  }

  // Visits up to `visits` clients round the ring, writing each one that misses batches what it misses.
  #step(visits: number): void {
    const head = this.#head()
    for (let visited = 0; visited < visits && this.#behind() > 0 && this.#ring.length > 0; visited++) {
      if (this.#cursor >= this.#ring.length) this.#cursor = 0
      const client = this.#ring[this.#cursor] as Client
      this.#cursor++
      if (client.next === head) continue
      const from = client.next
      const { frame, chunk } = this.#writeFrom(from)
      client.next = head
      this.#write(client, frame, chunk)
      this.#settle(from, head)
    }
    if (this.#behind() === 0) this.#dropBatches()
    else if (!this.#sweepScheduled) {
      this.#sweepScheduled = true
      setImmediate(() => {
        this.#sweepScheduled = false
        if (this.#behind() > 0) this.#step(this.#sweepStep)
      })
    }
  }

  // The batches from sequence number `next` to the last, as a frame and as one chunk.
  #writeFrom(next: number): { frame: Buffer; chunk: Buffer } {
    let write = this.#writes.get(next)
    if (write === undefined) {
      const frames = this.#batches.slice(next - this.#base).map((batch) => batch.frame)
      const frame = frames.length === 1 ? (frames[0] as Buffer) : Buffer.concat(frames)
      write = { frame, chunk: chunkOf(frame) }
      this.#writes.set(next, write)
    }
    return write
  }

  // A client no longer waits for the batches from sequence number `from` to `head` (written, or gone).
  #settle(from: number, head: number): void {
    for (let index = from - this.#base; index < head - this.#base; index++) {
      const batch = this.#batches[index] as Batch
      batch.missing -= 1
      if (batch.missing === 0) this.#options.observer?.delivered?.((performance.now() - batch.announcedAt) / 1000)
    }
  }

  #dropPending(): void {
    this.#scheduled = false
    this.#pending = []
  }

  // Every client has every batch: none is kept.
  #dropBatches(): void {
    this.#base = this.#head()
    this.#batches = []
    this.#writes.clear()
  }

  // Writes the replay, then what was published meanwhile.
  async #replay(client: Client, frames: AsyncIterable<Buffer> | Iterable<Buffer>): Promise<void> {
    const written = await writeReplay(client.res, frames)
    const held = client.held ?? []
    client.held = undefined
    if (!written || held.length === 0 || gone(client.res)) return
    const frame = Buffer.concat(held)
    this.#write(client, frame, chunkOf(frame))
  }

  #write(client: Client, frame: Buffer, chunk: Buffer): void {
    const { res } = client
    if (gone(res)) {
      this.#remove(client)
      return
    }
    if (client.held !== undefined) {
      if (frame === keepAliveFrame) return
      client.held.push(frame)
      client.heldBytes += frame.length
      if (client.heldBytes > this.#options.maxBacklogBytes) this.#cutOff(client)
      return
    }
    const { socket } = res
    // Nothing of the response's own is queued ahead (its writable length is the socket's alone).
    const direct = socket !== null && res.chunkedEncoding && res.writableLength === socket.writableLength
    const accepted = direct ? socket.write(chunk) : res.write(frame)
    if (!accepted && res.writableLength > this.#options.maxBacklogBytes) {
      this.#cutOff(client)
      return
    }
    // Re-arms the idle timer, also after it fired: a comment goes out only after keepAliveMs of silence.
    client.keepAlive?.refresh()
  }

  #cutOff(client: Client): void {
    this.#options.observer?.cutOff()
    this.#remove(client)
    client.res.destroy()
  }

  // Takes the client out of the ring (the last one takes its place); idempotent.
  #remove(client: Client): void {
    if (client.keepAlive !== undefined) clearTimeout(client.keepAlive)
    if (this.#ring[client.index] !== client) return
    const last = this.#ring.pop() as Client
    if (last !== client) {
      this.#ring[client.index] = last
      last.index = client.index
    }
    if (client.next === this.#head()) return
    this.#settle(client.next, this.#head())
    // The last client that missed a batch is gone: no one needs the batches kept.
    if (this.#behind() === 0) this.#dropBatches()
  }
}
