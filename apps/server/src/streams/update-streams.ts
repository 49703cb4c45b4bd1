import type Router from '@koa/router'
import type { RouterContext } from '@koa/router'
import type { ChainStore, StoreEvent } from '@weft/store'
import type { Logger } from 'pino'
import { writeEmpty } from '../http/responses.js'
import type { ProfileRules } from '../profile/profiles.js'
import type { AnnouncementLog } from './announcement-log.js'
import { BlockUpdateQueue } from './block-update-queue.js'
import { type AnnouncedHeader, blockEventData, eventDataParts, headerEventData } from './event-data.js'
import { eventFrame } from './event-frames.js'
import type { EventHub } from './event-hub.js'
import { EVENT_NAME, replayFor } from './resume.js'

/** The headers an event announces in a profile: every insert (spec), or the blocks joining the winning branch (chainweb). */
export function announcedHeaders(event: StoreEvent, headerEvents: 'inserted' | 'cut'): readonly AnnouncedHeader[] {
  if (headerEvents === 'inserted') return event.type === 'inserted' ? [event] : []
  return event.type === 'cut' ? event.joined : []
}

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

/**
 * Feeds the two hubs from the store's change feed. Every announcement enters the log (with its event
 * data, built once) whether or not a client listens, since a client may come back for it; the
 * frames of the hubs are built only when they have clients. Block updates need the payload (an async
 * read): they go through a bounded queue that keeps their order (block-update-queue.ts), and the log
 * notes how far that stream has published. Returns the function that stops feeding and waits for
 * the reads still running.
 */
export function feedUpdateStreams(feed: UpdateFeedParts, logger: Logger): () => Promise<void> {
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
  const unsubscribe = store.subscribe((event) => {
    for (const announced of announcedHeaders(event, rules.headerEvents)) {
      const parts = eventDataParts(rules, announced)
      const { seq, payloadHash } = log.append(parts, announced.header.payloadHash)
      const id = log.idOf(seq)
      if (headerUpdates.size > 0) headerUpdates.publish(eventFrame(EVENT_NAME, headerEventData(parts), id))
      // With no client and nothing queued, the event is passed at once: a client that comes replays it from the log.
      if (blockUpdates.size > 0 || blockQueue.size > 0)
        blockQueue.push(seq, payloadHash, (payload) => eventFrame(EVENT_NAME, blockEventData(rules, parts, payload), id))
      else log.blockPublished = seq
    }
  })
  return async () => {
    unsubscribe()
    await blockQueue.stop()
  }
}

/**
 * GET {base}/header/updates and {base}/block/updates: event streams (Accept is ignored). A client
 * that sends `Last-Event-ID` (or, without it, `?since=<id>`) is first sent what followed that event.
 */
export function registerUpdateRoutes(
  router: Router,
  hubs: UpdateHubs,
  reading: { store: ChainStore; rules: ProfileRules },
  base: string,
): void {
  const stream = (kind: 'header' | 'block') => (ctx: RouterContext) => {
    if (ctx.method === 'HEAD') {
      writeEmpty(ctx, 200, 'text/event-stream')
      return
    }
    const hub = kind === 'header' ? hubs.headerUpdates : hubs.blockUpdates
    const since = ctx.query.since
    const lastId = ctx.get('last-event-id') || (since === undefined ? '' : typeof since === 'string' ? since : since.join(','))
    // The hub writes to the raw response from now on; Koa must not answer for us.
    ctx.respond = false
    if (lastId === '') hub.attach(ctx.res)
    else hub.attach(ctx.res, replayFor(kind, lastId, { log: hubs.announcements, ...reading }))
  }
  router.get(`${base}/header/updates`, stream('header'))
  router.get(`${base}/block/updates`, stream('block'))
}
