import type { ChainStore } from '@weft/store'
import type { Logger } from 'pino'
import type { ProfileRules } from '../profile/profiles.js'
import type { Announcement, AnnouncementLog } from './announcement-log.js'
import { BlockUpdateQueue } from './block-update-queue.js'
import { type AnnouncedHeader, blockEventData, eventDataParts, headerEventData } from './event-data.js'
import { eventFrame } from './event-frames.js'
import type { EventHub } from './event-hub.js'
import { EVENT_NAME } from './resume.js'

/** The two event streams' hubs, and the log of what they announced (for clients that resume). */
export interface UpdateHubs {
  readonly headerUpdates: EventHub
  readonly blockUpdates: EventHub
  readonly announcements: AnnouncementLog
}

/** What feeds the streams: the store's change feed, the profile's rules of events, the hubs, and the bound of payload reads waiting. */
export interface UpdateFeedParts extends UpdateHubs {
  readonly store: ChainStore
  readonly rules: ProfileRules
  readonly maxPendingPayloads: number
}

/** Announces headers on a pair of hubs, in order, logged for resuming clients; `stop` waits for the payload reads still running. */
export interface Announcer {
  /** Announces `announced`; `withPlace`: its log entry keeps the block's place (for filtered streams). */
  announce(announced: AnnouncedHeader, withPlace?: boolean): Announcement
  stop(): Promise<void>
}

/**
 * Announces on the two hubs of `feed`. Every announcement enters the log (with its event data,
 * built once) whether or not a client listens, since a client may come back for it; the frames of
 * the hubs are built only when they have clients. Block updates need the payload (an async read):
 * they go through a bounded queue that keeps their order (block-update-queue.ts), and the log notes
 * how far that stream has published.
 */
export function createAnnouncer(feed: UpdateFeedParts, logger: Logger): Announcer {
  const { store, rules, headerUpdates, blockUpdates, announcements: log } = feed
  const blockQueue = new BlockUpdateQueue({
    store,
    hub: blockUpdates,
    maxPending: feed.maxPendingPayloads,
    logger,
    passed: (seq) => {
      log.blockPublished = seq
    },
  })
  return {
    announce(announced, withPlace = false) {
      const parts = eventDataParts(rules, announced)
      const { header } = announced
      const entry = log.append(
        parts,
        header.payloadHash,
        withPlace ? { chain: header.chainId, height: header.height, hash: header.hash } : undefined,
      )
      const { seq, payloadHash } = entry
      const id = log.idOf(seq)
      if (headerUpdates.size > 0) headerUpdates.publish(eventFrame(EVENT_NAME, headerEventData(parts), id))
      // With no client and nothing queued, the event is passed at once: a client that comes replays it from the log.
      if (blockUpdates.size > 0 || blockQueue.size > 0)
        blockQueue.push(seq, payloadHash, (payload) => eventFrame(EVENT_NAME, blockEventData(rules, parts, payload), id))
      else log.blockPublished = seq
      return entry
    },
    stop: () => blockQueue.stop(),
  }
}
