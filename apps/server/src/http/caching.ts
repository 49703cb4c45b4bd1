import { createHash } from 'node:crypto'
import type { ChainStore } from '@weft/store'
import type { Context, Middleware } from 'koa'

/**
 * How long a cache may keep an answer: `immutable` never changes (named by hash, or final: deep below
 * every head); `recent` may change with the next block (near the tip); `live` changes all the time
 * (the cut: revalidate every time, by ETag); `private` is the node's own state of the moment (readiness,
 * metrics, liveness), never to be kept.
 */
export type Freshness = 'immutable' | 'recent' | 'live' | 'private'

/** Seconds an immutable answer may be kept: one year, the longest RFC 9111 caches are told to honour in practice. */
export const IMMUTABLE_MAX_AGE = 31_536_000
/** Seconds a near-tip answer may be kept: a sixth of the 30 s block delay, long enough to absorb a burst of the same read. */
export const RECENT_MAX_AGE = 5

/** The `Cache-Control` value of each freshness. */
export const cacheControlOf: Readonly<Record<Freshness, string>> = {
  immutable: `public, max-age=${IMMUTABLE_MAX_AGE}, immutable`,
  recent: `public, max-age=${RECENT_MAX_AGE}`,
  live: 'no-cache',
  private: 'no-store',
}

interface CachingState {
  freshness?: Freshness
}

/** Says how long caches may keep the answer a route is writing (the default is `live`: revalidate every time). */
export function setFreshness(ctx: Context, freshness: Freshness): void {
  ;(ctx.state as CachingState).freshness = freshness
}

/** Says that the answer depends on the request's Accept (the header endpoints): `Vary: Accept`. */
export function varyOnAccept(ctx: Context): void {
  ctx.vary('Accept')
}

/**
 * The height at or below which a block lies `finalDepth` or more below every head of the node's cut:
 * pages and branches bounded there are final. Below zero when the cut is empty or too low.
 */
export function finalHeight(store: Pick<ChainStore, 'cut'>, finalDepth: number): number {
  let lowest = Number.POSITIVE_INFINITY
  for (const head of store.cut().values()) lowest = Math.min(lowest, head.height)
  return lowest === Number.POSITIVE_INFINITY ? -1 : lowest - finalDepth
}

/** `immutable` when an answer's highest height (`bound`, undefined: unbounded) is final, else `recent`. */
export function freshnessAt(bound: number | undefined, final: number): Freshness {
  return bound !== undefined && bound <= final ? 'immutable' : 'recent'
}

/** A strong entity tag of body bytes: the SHA-256 of the bytes sent, unpadded base64url, quoted. */
export function entityTag(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url')}"`
}

/**
 * Whether an `If-None-Match` value matches `tag` (RFC 9110 13.1.2): `*` matches any current
 * representation; otherwise a list of entity tags, compared weakly (a `W/` prefix is ignored). A
 * malformed member ends the list: what was read before it still counts.
 */
export function noneMatchMatches(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false
  if (header.trim() === '*') return true
  const opaque = tag.startsWith('W/') ? tag.slice(2) : tag
  // entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE; etagc may be a comma, so members are read, not split.
  const member = /\s*(?:W\/)?("[^"]*")\s*(?:,|$)/gy
  let match = member.exec(header)
  while (match !== null) {
    if (match[1] === opaque) return true
    match = member.exec(header)
  }
  return false
}

/**
 * Caching headers and conditional answers. Every 200 answer whose body is bytes gets a strong `ETag`
 * of those bytes and the `Cache-Control` of its route's freshness (`live` unless the route said
 * otherwise); a GET or HEAD whose `If-None-Match` matches is answered 304 without a body, the same
 * headers kept. POST answers (branches, batches) carry both headers and are always answered in full.
 * Error answers are `no-store`. Event streams write their own headers and are left alone.
 */
export function caching(): Middleware {
  return async (ctx, next) => {
    await next()
    if (ctx.respond === false) return
    if (ctx.status >= 400) {
      ctx.set('cache-control', cacheControlOf.private)
      return
    }
    if (ctx.status !== 200 || !Buffer.isBuffer(ctx.body)) return
    const tag = entityTag(ctx.body)
    ctx.set('etag', tag)
    ctx.set('cache-control', cacheControlOf[(ctx.state as CachingState).freshness ?? 'live'])
    if ((ctx.method === 'GET' || ctx.method === 'HEAD') && noneMatchMatches(ctx.get('if-none-match') || undefined, tag)) {
      // Koa drops the body and its content headers for a 304; ETag, Cache-Control and Vary stay.
      ctx.status = 304
    }
  }
}
