import { txCount } from '@weft/block'
import type { ChainStore, JoinedBlock, StoreEvent } from '@weft/store'
import type { Logger } from 'pino'
import { TooManyRequestsError } from '../errors.js'
import type { ProfileRules } from '../profile/profiles.js'
import { AnnouncementLog } from './announcement-log.js'
import { type Announcer, createAnnouncer, type UpdateHubs } from './announcer.js'
import { EventHub } from './event-hub.js'
import type { EventHubOptions } from './hub-options.js'
import { IndexedStreams } from './index-streams.js'

/** The deepest confirmation depth a stream may ask for (`?depth=`): deeper blocks are read with page queries. */
export const MAX_STREAM_DEPTH = 1000

/** Different depths followed at once; a client asking for another is answered `TOO_MANY_STREAMS` until one is idle. */
export const MAX_DEPTH_FEEDS = 8

// A feed with no client at two checks in a row is stopped (its ids then answer ResumeFromPage).
const IDLE_CHECK_MS = 30_000

/** What the depth feeds are made of: the store, the profile's event rules, and the settings of the main streams. */
export interface DepthFeedParts {
  readonly store: ChainStore
  readonly rules: ProfileRules
  readonly hubOptions: EventHubOptions
  readonly retention: number
  readonly maxPendingPayloads: number
  readonly logger: Logger
  /** How often feeds without clients are looked for, ms (default 30,000); one idle at two checks in a row is stopped. */
  readonly idleCheckMs?: number
}

/**
 * The streams of blocks at a confirmation depth (`{base}/header/updates?depth=N`, and the block
 * stream's): a block is announced once it lies `N` below its chain's head on the winning branch,
 * never an orphan, in the order blocks reach that depth (by height, then chain). A feed per depth
 * asked for, made when its first client comes and stopped when it has had none for a while; each
 * has its own hubs and its own log of ids, so its clients resume as the main streams' do.
 */
export class DepthFeeds {
  readonly #parts: DepthFeedParts
  readonly #feeds = new Map<number, DepthFeed>()
  readonly #timer: NodeJS.Timeout
  readonly #retryAfter: number

  constructor(parts: DepthFeedParts) {
    this.#parts = parts
    this.#retryAfter = Math.ceil((2 * (parts.idleCheckMs ?? IDLE_CHECK_MS)) / 1000)
    this.#timer = setInterval(() => this.#stopIdle(), parts.idleCheckMs ?? IDLE_CHECK_MS).unref()
  }

  /** Depths followed now. */
  get depths(): number[] {
    return [...this.#feeds.keys()]
  }

  /** The feed of depth `depth` (0 to `MAX_STREAM_DEPTH`), made on first use: its hubs and its filtered streams. */
  hubs(depth: number): UpdateHubs & { readonly indexed: IndexedStreams } {
    let feed = this.#feeds.get(depth)
    if (feed === undefined) {
      if (this.#feeds.size >= MAX_DEPTH_FEEDS)
        throw new TooManyRequestsError(
          'TOO_MANY_STREAMS',
          `Expected at most ${MAX_DEPTH_FEEDS} different stream depths followed at once, received a request for another (depths followed: ${this.depths.join(', ')}): retry in ${this.#retryAfter} s`,
          this.#retryAfter,
        )
      feed = new DepthFeed(depth, this.#parts)
      this.#feeds.set(depth, feed)
    }
    feed.idleChecks = 0
    return feed
  }

  /** Stops every feed: their clients are cut, their reads waited for. */
  async close(): Promise<void> {
    clearInterval(this.#timer)
    const feeds = [...this.#feeds.values()]
    this.#feeds.clear()
    await Promise.all(feeds.map((feed) => feed.stop()))
  }

  #stopIdle(): void {
    for (const [depth, feed] of this.#feeds) {
      if (feed.headerUpdates.size + feed.blockUpdates.size + feed.indexed.size > 0) feed.idleChecks = 0
      else if (++feed.idleChecks >= 2) {
        this.#feeds.delete(depth)
        void feed.stop()
      }
    }
  }
}

/**
 * One depth's feed. It keeps, per chain, the blocks of the winning branch that joined the cut and
 * are not yet `depth` deep (`waiting`, by height): a reorg replaces the entries from the fork up
 * (the store announces the new branch's blocks as they join) and drops those above the new head.
 * A reorg deeper than the depth (the real network's are a few blocks) announces the new winning
 * blocks at heights already announced: the stream then has two blocks at such a height, the later
 * one the winner.
 */
class DepthFeed implements UpdateHubs {
  readonly headerUpdates: EventHub
  readonly blockUpdates: EventHub
  readonly announcements: AnnouncementLog
  /** The streams of one transaction, one account's transfers, or events, taken from this feed's blocks. */
  readonly indexed: IndexedStreams
  idleChecks = 0
  readonly #depth: number
  readonly #store: ChainStore
  readonly #announcer: Announcer
  readonly #waiting = new Map<number, WaitingLine>()
  readonly #unsubscribe: () => void
  // Until the blocks already less than `depth` deep are read, the cut's moves only fill `waiting`.
  #ready = false

  constructor(depth: number, parts: DepthFeedParts) {
    this.#depth = depth
    this.#store = parts.store
    this.headerUpdates = new EventHub(parts.hubOptions)
    this.blockUpdates = new EventHub(parts.hubOptions)
    this.announcements = new AnnouncementLog(parts.retention)
    this.indexed = new IndexedStreams({ store: parts.store, log: this.announcements, hubOptions: parts.hubOptions, logger: parts.logger })
    this.#announcer = createAnnouncer(
      {
        store: parts.store,
        rules: parts.rules,
        maxPendingPayloads: parts.maxPendingPayloads,
        headerUpdates: this.headerUpdates,
        blockUpdates: this.blockUpdates,
        announcements: this.announcements,
      },
      parts.logger,
    )
    this.#unsubscribe = parts.store.subscribe((event) => this.#moved(event))
    void this.#readWaiting().then(
      () => {
        this.#ready = true
        this.#announceDue(parts.store.cut())
      },
      (error: unknown) => {
        parts.logger.error({ err: error, depth }, 'a depth stream could not read the blocks above its depth: its clients are cut')
        void this.stop()
      },
    )
  }

  async stop(): Promise<void> {
    this.#unsubscribe()
    this.headerUpdates.close()
    this.blockUpdates.close()
    await Promise.all([this.#announcer.stop(), this.indexed.stop()])
  }

  #moved(event: StoreEvent): void {
    if (event.type !== 'cut') return
    for (const block of event.joined) this.#chain(block.header.chainId).set(block.header.height, block)
    for (const [chain, head] of event.cut) this.#chain(chain).dropAbove(head.height)
    if (this.#ready) this.#announceDue(event.cut)
  }

  // Announces every waiting block that is now `depth` below its chain's head, by height, then chain.
  #announceDue(cut: ReadonlyMap<number, { readonly height: number }>): void {
    const due: JoinedBlock[] = []
    for (const [chain, head] of cut) this.#chain(chain).take(head.height - this.#depth, due)
    due.sort((a, b) => a.header.height - b.header.height || a.header.chainId - b.header.chainId)
    for (const block of due) {
      const { seq } = this.#announcer.announce(block, true)
      const { header } = block
      this.indexed.announced({ seq, chain: header.chainId, height: header.height, hash: header.hash, payloadHash: header.payloadHash })
    }
  }

  // The blocks of the winning branch not yet `depth` deep when the feed starts: they are the first it
  // announces. A block that joined meanwhile is already waiting, and newer: it is kept.
  async #readWaiting(): Promise<void> {
    for (const [chain, head] of this.#store.cut()) {
      const waiting = this.#chain(chain)
      for (let height = Math.max(0, head.height - this.#depth + 1); height <= head.height; height++) {
        if (waiting.has(height)) continue
        const ref = await this.#store.ancestorAt(head.hash, height)
        const stored = ref === undefined ? undefined : await this.#store.getStoredHeader(ref.hash)
        if (stored === undefined || waiting.has(height)) continue
        const payload = await this.#store.getPayloadJson(stored.header.payloadHash)
        const count = payload === undefined ? 0 : txCount(JSON.parse(payload.toString('utf8')))
        waiting.set(height, { header: stored.header, headerJson: stored.headerJson, txCount: count })
      }
    }
  }

  #chain(chain: number): WaitingLine {
    let waiting = this.#waiting.get(chain)
    if (waiting === undefined) {
      waiting = new WaitingLine()
      this.#waiting.set(chain, waiting)
    }
    return waiting
  }
}

/**
 * One chain's blocks waiting to reach the depth, by height. Blocks join ancestors first, so the
 * heights waiting run from about `low` to `high`: each move of the cut costs the heights it
 * touches, not the depth.
 */
class WaitingLine {
  readonly #blocks = new Map<number, JoinedBlock>()
  #low = Number.POSITIVE_INFINITY
  #high = -1

  has(height: number): boolean {
    return this.#blocks.has(height)
  }

  set(height: number, block: JoinedBlock): void {
    this.#blocks.set(height, block)
    this.#low = Math.min(this.#low, height)
    this.#high = Math.max(this.#high, height)
  }

  /** Drops the blocks above `top`: a reorg to a lower head orphaned them. */
  dropAbove(top: number): void {
    for (let height = top + 1; height <= this.#high; height++) this.#blocks.delete(height)
    this.#high = Math.min(this.#high, top)
  }

  /** Moves the blocks at `upTo` and below into `into`, ascending. */
  take(upTo: number, into: JoinedBlock[]): void {
    if (upTo < this.#low) return
    for (let height = this.#low; height <= Math.min(upTo, this.#high); height++) {
      const block = this.#blocks.get(height)
      if (block === undefined) continue
      into.push(block)
      this.#blocks.delete(height)
    }
    this.#low = upTo + 1
  }
}
