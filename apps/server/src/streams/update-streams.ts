import type Router from '@koa/router'
import type { RouterContext } from '@koa/router'
import type { StoreEvent } from '@weft/store'
import type { Logger } from 'pino'
import { writeEmpty } from '../http/responses.js'
import type { NodeContext } from '../node-context.js'
import { BlockUpdateQueue } from './block-update-queue.js'
import { type AnnouncedHeader, blockEventData, eventDataParts, headerEventData } from './event-data.js'
import { eventFrame } from './event-hub.js'

/** Name of every update event. */
export const EVENT_NAME = 'BlockHeader'

/** The headers an event announces in a profile: every insert (spec), or the blocks joining the winning branch (chainweb). */
export function announcedHeaders(event: StoreEvent, headerEvents: 'inserted' | 'cut'): readonly AnnouncedHeader[] {
  if (headerEvents === 'inserted') return event.type === 'inserted' ? [event] : []
  return event.type === 'cut' ? event.joined : []
}

/**
 * Feeds the two hubs from the store's change feed: one frame Buffer per event, built only when the
 * hub has clients. Block updates need the payload (an async read): they go through a bounded queue
 * that keeps their order (block-update-queue.ts). Returns the function that stops feeding and waits
 * for the reads still running.
 */
export function feedUpdateStreams(node: NodeContext, logger: Logger): () => Promise<void> {
  const blockQueue = new BlockUpdateQueue({ store: node.store, hub: node.blockUpdates, maxPending: node.config.maxPendingPayloads, logger })
  const unsubscribe = node.store.subscribe((event) => {
    for (const announced of announcedHeaders(event, node.rules.headerEvents)) {
      if (node.headerUpdates.size === 0 && node.blockUpdates.size === 0) continue
      const parts = eventDataParts(node.rules, announced)
      if (node.headerUpdates.size > 0) node.headerUpdates.publish(eventFrame(EVENT_NAME, headerEventData(parts)))
      if (node.blockUpdates.size > 0)
        blockQueue.push(announced.header.payloadHash, (payload) => eventFrame(EVENT_NAME, blockEventData(node.rules, parts, payload)))
    }
  })
  return async () => {
    unsubscribe()
    await blockQueue.stop()
  }
}

/** GET {base}/header/updates and {base}/block/updates: event streams (Accept is ignored). */
export function registerUpdateRoutes(router: Router, node: NodeContext, base: string): void {
  const stream = (hub: 'headerUpdates' | 'blockUpdates') => (ctx: RouterContext) => {
    if (ctx.method === 'HEAD') {
      writeEmpty(ctx, 200, 'text/event-stream')
      return
    }
    // The hub writes to the raw response from now on; Koa must not answer for us.
    ctx.respond = false
    node[hub].attach(ctx.res)
  }
  router.get(`${base}/header/updates`, stream('headerUpdates'))
  router.get(`${base}/block/updates`, stream('blockUpdates'))
}
