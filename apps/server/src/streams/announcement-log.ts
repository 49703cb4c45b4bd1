import { randomBytes } from 'node:crypto'
import type { EventDataParts } from './event-data.js'

/** One announcement of the node: its place in the sequence, its event data, and its payload's hash (for `/block/updates`). */
export interface Announcement {
  readonly seq: number
  readonly parts: EventDataParts
  readonly payloadHash: Uint8Array
  /** The block's place, for the filtered streams that derive its index entries again (depth-feeds.ts). */
  readonly block?: { readonly chain: number; readonly height: number; readonly hash: Buffer } | undefined
}

/** What an event id a client sent back (`Last-Event-ID`, `since`) means here. */
export type ResumePoint =
  /** The client has seen everything up to `seq` of this log: it is sent what follows. */
  | { readonly kind: 'resume'; readonly seq: number }
  /** Its events are gone from the window, or were never this log's: it must resume from a page query. */
  | { readonly kind: 'expired' | 'foreign' | 'malformed' }

const idPattern = /^([0-9a-f]{16})\.(0|[1-9][0-9]{0,15})$/

/**
 * The node's announcements in the order the streams sent them, the last `capacity` kept so that a
 * client that reconnects with the id of the last event it saw is sent what it missed. An id is
 * `<epoch>.<seq>`: the epoch is 16 random hex digits drawn when the log is made (at every start of
 * the server), so that an id of another node, another store or an earlier run is never taken for one
 * of this log's; `seq` counts announcements from 1 (`<epoch>.0` is the point before the first).
 * Memory is the ring of `capacity` entries and their event data, about 1 KB each.
 */
export class AnnouncementLog {
  /** The epoch of this log's ids. */
  readonly epoch: string
  /** The last announcement `/block/updates` published (or passed over with no client): it lags `head` by the payload reads. */
  blockPublished = 0
  readonly #capacity: number
  readonly #ring: Array<Announcement | undefined>
  #head = 0

  constructor(capacity: number, epoch: string = randomBytes(8).toString('hex')) {
    this.epoch = epoch
    this.#capacity = capacity
    this.#ring = new Array<Announcement | undefined>(capacity)
  }

  /** Sequence number of the last announcement (0: none yet). */
  get head(): number {
    return this.#head
  }

  /** The oldest sequence number still kept (`head + 1` when none is). */
  get oldest(): number {
    return Math.max(1, this.#head - this.#capacity + 1)
  }

  /** Adds an announcement; returns it, with its sequence number. */
  append(parts: EventDataParts, payloadHash: Uint8Array, block?: Announcement['block']): Announcement {
    const announcement = { seq: this.#head + 1, parts, payloadHash, block }
    this.#head = announcement.seq
    if (this.#capacity > 0) this.#ring[announcement.seq % this.#capacity] = announcement
    return announcement
  }

  /** The id of sequence number `seq`. */
  idOf(seq: number): string {
    return `${this.epoch}.${seq}`
  }

  /** What `id` means: a point of this log's window, or one it cannot resume from (and why). */
  pointOf(id: string): ResumePoint {
    const match = idPattern.exec(id)
    if (match === null) return { kind: 'malformed' }
    const seq = Number(match[2])
    if (match[1] !== this.epoch || seq > this.#head) return { kind: 'foreign' }
    if (seq < this.oldest - 1) return { kind: 'expired' }
    return { kind: 'resume', seq }
  }

  /** The announcements after `seq` up to `upTo`, in order; `seq` must be a resume point of the window. */
  between(seq: number, upTo: number): Announcement[] {
    const entries: Announcement[] = []
    for (let next = seq + 1; next <= upTo; next++) entries.push(this.#ring[next % this.#capacity] as Announcement)
    return entries
  }
}
