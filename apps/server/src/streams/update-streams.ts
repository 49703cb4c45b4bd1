import type Router from '@koa/router'
import type { RouterContext } from '@koa/router'
import type { ChainStore, StoreEvent } from '@weft/store'
import type { Logger } from 'pino'
import { writeEmpty } from '../http/responses.js'
import type { ProfileRules } from '../profile/profiles.js'
import { BlockUpdateQueue } from './block-update-queue.js'
import { type AnnouncedHeader, blockEventData, eventDataParts, headerEventData } from './event-data.js'
import { type EventHub, eventFrame } from './event-hub.js'

/** Name of every update event. */
export const EVENT_NAME = 'BlockHeader'

/** The headers an event announces in a profile: every insert (spec), or the blocks joining the winning branch (chainweb). */
export function announcedHeaders(event: StoreEvent, headerEvents: 'inserted' | 'cut'): readonly AnnouncedHeader[] {
  if (headerEvents === 'inserted') return event.type === 'inserted' ? [event] : []
  return event.type === 'cut' ? event.joined : []
}

/** The two event streams' hubs: their clients, and what is written to them. */
export interface UpdateHubs {
  readonly headerUpdates: EventHub
  readonly blockUpdates: EventHub
}

/** What feeds the streams: the store's change feed, the profile's rules of events, the hubs, and the bound of payload reads waiting. */
export interface UpdateFeedParts extends UpdateHubs {
  readonly store: ChainStore
  readonly rules: ProfileRules
  readonly maxPendingPayloads: number
}

/**
 * Feeds the two hubs from the store's change feed: one frame Buffer per event, built only when the
 * hub has clients. Block updates need the payload (an async read): they go through a bounded queue
 * that keeps their order (block-update-queue.ts). Returns the function that stops feeding and waits
 * for the reads still running.
 */
export function feedUpdateStreams(feed: UpdateFeedParts, logger: Logger): () => Promise<void> {
  const { store, rules, headerUpdates, blockUpdates } = feed
  const blockQueue = new BlockUpdateQueue({ store, hub: blockUpdates, maxPending: feed.maxPendingPayloads, logger })
  const unsubscribe = store.subscribe((event) => {
    for (const announced of announcedHeaders(event, rules.headerEvents)) {
      if (headerUpdates.size === 0 && blockUpdates.size === 0) continue
      const parts = eventDataParts(rules, announced)
      if (headerUpdates.size > 0) headerUpdates.publish(eventFrame(EVENT_NAME, headerEventData(parts)))
      if (blockUpdates.size > 0)
        blockQueue.push(announced.header.payloadHash, (payload) => eventFrame(EVENT_NAME, blockEventData(rules, parts, payload)))
    }
  })
  return async () => {
    unsubscribe()
    await blockQueue.stop()
  }
}

/** GET {base}/header/updates and {base}/block/updates: event streams (Accept is ignored). */
export function registerUpdateRoutes(router: Router, hubs: UpdateHubs, base: string): void {
  const stream = (hub: keyof UpdateHubs) => (ctx: RouterContext) => {
    if (ctx.method === 'HEAD') {
      writeEmpty(ctx, 200, 'text/event-stream')
      return
    }
    // The hub writes to the raw response from now on; Koa must not answer for us.
    ctx.respond = false
    hubs[hub].attach(ctx.res)
  }
  router.get(`${base}/header/updates`, stream('headerUpdates'))
  router.get(`${base}/block/updates`, stream('blockUpdates'))
}
