import type { ChainStore } from '@weft/store'
import type { Logger } from 'pino'
import type { EventHub } from './event-hub.js'

interface PendingEvent {
  readonly seq: number
  readonly payloadHash: Uint8Array
  readonly frameOf: (payload: Buffer) => Buffer
  /** Its payload read, once started (the first `READS_AT_ONCE` events of the queue have theirs). */
  read?: Promise<Buffer | undefined>
}

// Payload reads running at once: a burst (a deep reorg, a copied window) must not fill the thread pool.
const READS_AT_ONCE = 32

/** Settings of a `BlockUpdateQueue`. */
export interface BlockUpdateQueueOptions {
  readonly store: ChainStore
  readonly hub: EventHub
  /** Events waiting for their payload at most; past it the hub's clients are cut. */
  readonly maxPending: number
  readonly logger: Logger
  /** Told the sequence number of each announcement published, or dropped with the clients cut (all in order). */
  readonly passed: (seq: number) => void
}

/**
 * The `/block/updates` events waiting for their payloads. The reads of the first `READS_AT_ONCE`
 * events run together (they used to run one after another, so that under load each event waited for
 * all the reads before it: 4.3 s of lag), and frames are published in event order as their reads
 * complete. The events waiting are bounded like the bytes a client may have pending: past
 * `maxPending` the stream's clients are all behind by that much, and they are cut (they reconnect,
 * by contract) rather than buffered for. The bound is above the bursts an honest node announces at
 * once: a chainweb-profile reorg 1,000 deep, a window of blocks copied by ingest.
 */
export class BlockUpdateQueue {
  readonly #options: BlockUpdateQueueOptions
  readonly #pending: PendingEvent[] = []
  readonly #reading = new Set<Promise<unknown>>()
  // How many events at the head of the queue have their read started (always a prefix).
  #started = 0
  #draining: Promise<void> | undefined
  #stopped = false

  constructor(options: BlockUpdateQueueOptions) {
    this.#options = options
  }

  /** Events waiting for their payload now. */
  get size(): number {
    return this.#pending.length
  }

  /** Reads the payload of announcement `seq` and publishes `frameOf(payload)` after the events before it. */
  push(seq: number, payloadHash: Uint8Array, frameOf: (payload: Buffer) => Buffer): void {
    if (this.#stopped) return
    if (this.#pending.length >= this.#options.maxPending) {
      this.#pending.length = 0
      this.#started = 0
      this.#options.hub.cutAll()
      // The clients cut resume from the announcement log, which has the events dropped here.
      this.#options.passed(seq)
      return
    }
    this.#pending.push({ seq, payloadHash, frameOf })
    this.#startReads()
    this.#draining ??= this.#drain()
  }

  /** Publishes nothing more and waits for the reads still running (the store closes next). */
  async stop(): Promise<void> {
    this.#stopped = true
    this.#pending.length = 0
    this.#started = 0
    await Promise.all([...this.#reading])
    await this.#draining
  }

  // Starts the reads of the events among the first READS_AT_ONCE that have none yet.
  #startReads(): void {
    for (; this.#started < Math.min(this.#pending.length, READS_AT_ONCE); this.#started++) {
      const event = this.#pending[this.#started] as PendingEvent
      const read = this.#options.store.getPayloadJson(event.payloadHash).catch((error: unknown) => {
        if (!this.#stopped) this.#options.logger.error({ err: error }, 'reading a payload for /block/updates failed')
        return undefined
      })
      this.#reading.add(read)
      void read.finally(() => this.#reading.delete(read))
      event.read = read
    }
  }

  async #drain(): Promise<void> {
    for (let head = this.#pending[0]; head !== undefined; head = this.#pending[0]) {
      // The head's read was started when it entered the first READS_AT_ONCE.
      const payload = await head.read
      // Cut meanwhile: the event is gone with the others, and the new head has its own read.
      if (this.#pending[0] !== head) continue
      this.#pending.shift()
      this.#started -= 1
      this.#startReads()
      if (this.#stopped) continue
      if (payload !== undefined) this.#options.hub.publish(head.frameOf(payload))
      this.#options.passed(head.seq)
    }
    this.#draining = undefined
  }
}
