import type Router from '@koa/router'
import type { RouterContext } from '@koa/router'
import type { ChainStore, StoreEvent } from '@weft/store'
import type { Logger } from 'pino'
import { InvalidQueryError } from '../errors.js'
import { writeEmpty } from '../http/responses.js'
import type { ProfileRules } from '../profile/profiles.js'
import { createAnnouncer, type UpdateFeedParts, type UpdateHubs } from './announcer.js'
import { type DepthFeeds, MAX_STREAM_DEPTH } from './depth-feeds.js'
import type { AnnouncedHeader } from './event-data.js'
import { type IndexFilter, parseIndexFilter } from './index-streams.js'
import { replayFor } from './resume.js'

/** The headers an event announces in a profile: every insert (spec), or the blocks joining the winning branch (chainweb). */
export function announcedHeaders(event: StoreEvent, headerEvents: 'inserted' | 'cut'): readonly AnnouncedHeader[] {
  if (headerEvents === 'inserted') return event.type === 'inserted' ? [event] : []
  return event.type === 'cut' ? event.joined : []
}

/**
 * Feeds the two hubs from the store's change feed, as the profile announces (see `announcedHeaders`).
 * Returns the function that stops feeding and waits for the reads still running.
 */
export function feedUpdateStreams(feed: UpdateFeedParts, logger: Logger): () => Promise<void> {
  const announcer = createAnnouncer(feed, logger)
  const unsubscribe = feed.store.subscribe((event) => {
    for (const announced of announcedHeaders(event, feed.rules.headerEvents)) announcer.announce(announced)
  })
  return async () => {
    unsubscribe()
    await announcer.stop()
  }
}

/**
 * GET {base}/header/updates and {base}/block/updates: event streams (Accept is ignored). A client
 * that sends `Last-Event-ID` (or, without it, `?since=<id>`) is first sent what followed that event.
 * With `?depth=N` (0 to `MAX_STREAM_DEPTH`) the stream is that depth's: blocks of the winning
 * branch once they lie N below their chain's head (depth-feeds.ts), resumed by ids of its own.
 */
export function registerUpdateRoutes(
  router: Router,
  hubs: UpdateHubs,
  reading: { store: ChainStore; rules: ProfileRules; depths: DepthFeeds },
  base: string,
): void {
  const stream = (kind: 'header' | 'block') => (ctx: RouterContext) => {
    const depth = depthOf(ctx.query.depth)
    if (ctx.method === 'HEAD') {
      writeEmpty(ctx, 200, 'text/event-stream')
      return
    }
    const source = depth === undefined ? hubs : reading.depths.hubs(depth)
    const hub = kind === 'header' ? source.headerUpdates : source.blockUpdates
    const since = ctx.query.since
    const lastId = ctx.get('last-event-id') || (since === undefined ? '' : typeof since === 'string' ? since : since.join(','))
    // The hub writes to the raw response from now on; Koa must not answer for us.
    ctx.respond = false
    if (lastId === '') hub.attach(ctx.res)
    else hub.attach(ctx.res, replayFor(kind, lastId, { log: source.announcements, store: reading.store, rules: reading.rules }))
  }
  router.get(`${base}/header/updates`, stream('header'))
  router.get(`${base}/block/updates`, stream('block'))
  // The filtered streams, from the index entries of the blocks joining the winning branch (at `?depth=`, default 0).
  const filtered = (kind: IndexFilter['kind']) => (ctx: RouterContext) => {
    const filter = parseIndexFilter(kind, ctx.query)
    const depth = depthOf(ctx.query.depth) ?? 0
    if (ctx.method === 'HEAD') {
      writeEmpty(ctx, 200, 'text/event-stream')
      return
    }
    const since = ctx.query.since
    const lastId = ctx.get('last-event-id') || (typeof since === 'string' ? since : undefined)
    ctx.respond = false
    reading.depths.hubs(depth).indexed.attach(ctx.res, filter, lastId || undefined)
  }
  router.get(`${base}/transaction/updates`, filtered('transaction'))
  router.get(`${base}/transfer/updates`, filtered('transfer'))
  router.get(`${base}/event/updates`, filtered('event'))
}

// `?depth=`: absent, or one integer from 0 to MAX_STREAM_DEPTH written plainly.
function depthOf(value: string | string[] | undefined): number | undefined {
  if (value === undefined) return undefined
  const text = typeof value === 'string' ? value : value.join(',')
  if (!/^(0|[1-9][0-9]{0,3})$/.test(text) || Number(text) > MAX_STREAM_DEPTH)
    throw new InvalidQueryError(
      `Expected query parameter depth to be an integer from 0 to ${MAX_STREAM_DEPTH}, received ${JSON.stringify(text.slice(0, 40))}`,
    )
  return Number(text)
}
