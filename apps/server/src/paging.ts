import { ascendingPage, type Cursor, formatCursor, resolveLimit } from '@weft/cursor'
import { decodeHash, encodeHash, isHashText } from '@weft/hash-text'
import type { RangeItem } from '@weft/store'
import { branch, type HeaderRef } from '@weft/traversal'
import type { Context } from 'koa'
import { InvalidBodyError, KeyNotFoundError, NoMatchingBlocksError, RouteNotFoundError, TooManyBoundsError } from './errors.js'
import { contentTypes } from './negotiation.js'
import type { NodeContext } from './node-context.js'
import type { PageQuery } from './query.js'

/** Most distinct bounds of each kind in a branch body. */
export const MAX_BOUNDS = 32

/** A page of stored things, before rendering. */
export interface StoredPage<T> {
  readonly items: T[]
  readonly next: string | null
}

/** Reads and checks the `{chain}` path segment: any chain of the network's newest graph, else 404. */
export function chainParam(node: NodeContext, ctx: Context, text: string | undefined): number {
  if (text === undefined || !/^(0|[1-9][0-9]{0,3})$/.test(text) || !node.chains.has(Number(text))) throw new RouteNotFoundError(ctx.path)
  return Number(text)
}

/** Whether the query's height bounds exclude everything (maxheight below minheight). */
export function boundsAreEmpty(query: PageQuery): boolean {
  return query.maxheight !== undefined && query.minheight !== undefined && query.maxheight < query.minheight
}

/** One page of a chain in ascending (height, hash) order, straight from the store's range. */
export async function readAscendingPage(node: NodeContext, chain: number, query: PageQuery, cap: number): Promise<StoredPage<RangeItem>> {
  if (boundsAreEmpty(query)) return { items: [], next: null }
  const limit = resolveLimit(query.limit ?? cap, cap)
  const source = node.store.range({
    chain,
    ...(query.minheight === undefined ? {} : { minheight: query.minheight }),
    ...(query.maxheight === undefined ? {} : { maxheight: query.maxheight }),
    ...(query.cursor === undefined ? {} : { start: { hash: query.cursor.hash, inclusive: query.cursor.inclusive } }),
  })
  try {
    return await ascendingPage(source, { limit, hashOf: (item) => item.hash, end: node.rules.lastPageNext })
  } catch (error) {
    throw translateLookupError(error, query.cursor)
  }
}

/** The bounds of a branch body, checked: hashes decoded, duplicates dropped, at most 32 of each. */
export interface ParsedBounds {
  readonly upper: Buffer[]
  readonly lower: Buffer[]
}

/** Checks a branch body `{"lower": [...], "upper": [...]}` (both optional, null means empty). */
export function parseBounds(body: unknown): ParsedBounds {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new InvalidBodyError('Expected a JSON object {"lower": [hash...], "upper": [hash...]}')
  const record = body as Record<string, unknown>
  const read = (key: 'upper' | 'lower'): Buffer[] => {
    const value = record[key]
    if (value === undefined || value === null) return []
    if (!Array.isArray(value)) throw new InvalidBodyError(`Expected ${key} to be an array of block hashes or null`)
    const seen = new Map<string, Buffer>()
    for (const entry of value as unknown[]) {
      if (typeof entry !== 'string' || !isHashText(entry))
        throw new InvalidBodyError(
          `Expected every ${key} bound to be a block hash (43 base64url characters), received ${JSON.stringify(entry)?.slice(0, 80)}`,
        )
      const hash = decodeHash(entry)
      seen.set(hash.toString('hex'), hash)
    }
    if (seen.size > MAX_BOUNDS) throw new TooManyBoundsError(key, seen.size, MAX_BOUNDS)
    return [...seen.values()]
  }
  return { upper: read('upper'), lower: read('lower') }
}

// Everything that defines a walk, so that a walk kept under it is the walk a re-walk would do.
function walkKey(chain: number, query: PageQuery, bounds: ParsedBounds): string {
  const hex = (hashes: readonly Buffer[]): string =>
    hashes
      .map((hash) => hash.toString('hex'))
      .sort()
      .join(',')
  return `${chain} ${hex(bounds.upper)} ${hex(bounds.lower)} ${query.minheight ?? '-'} ${query.maxheight ?? '-'} `
}

/**
 * One page of a branch, descending; an unknown or foreign cursor is a 404, a cursor off the branch gives nothing.
 * A page that ends with a `next` cursor keeps its walk in `node.branchWalks`, and a request coming back with
 * that cursor (same chain, bounds and heights) continues it instead of walking down from the bounds again.
 */
export async function readBranchPage(
  node: NodeContext,
  chain: number,
  query: PageQuery,
  bounds: ParsedBounds,
  cap: number,
): Promise<StoredPage<HeaderRef>> {
  const { cursor } = query
  const limit = resolveLimit(query.limit ?? cap, cap)
  const key = walkKey(chain, query, bounds)
  // Kept walks are keyed by the cursors this node issued, and it issues `inclusive:` ones only.
  if (cursor?.inclusive === true) {
    const kept = node.branchWalks.take(key + formatCursor(cursor))
    if (kept !== undefined) return await readWalkPage(node, key, kept.iterator, kept.following, limit, undefined, cursor)
  }
  // One batch: the cursor block (a 404 when unknown or foreign) and the lower bounds. A walk may be kept only
  // when every lower bound is stored already: one stored later would change what a re-walk excludes.
  const lowerAt = cursor === undefined ? 0 : 1
  const refs = await node.store.getRefs(cursor === undefined ? bounds.lower : [cursor.hash, ...bounds.lower])
  if (cursor !== undefined) {
    const ref = refs[0]
    if (ref === undefined || ref.chainId !== chain) throw new KeyNotFoundError('CURSOR_NOT_FOUND', encodeHash(cursor.hash), 'Cursor block')
  }
  const keepable = refs.slice(lowerAt).every((ref) => ref !== undefined)
  // Upper bounds are checked even when the height bounds exclude everything: an unknown one is a 404.
  const walk = branch(node.store, {
    chain,
    upper: bounds.upper,
    lower: bounds.lower,
    maxBounds: MAX_BOUNDS,
    ...(query.minheight === undefined ? {} : { minheight: query.minheight }),
    ...(query.maxheight === undefined ? {} : { maxheight: query.maxheight }),
    ...(cursor === undefined ? {} : { start: cursor.hash }),
  })
  if (boundsAreEmpty(query)) {
    try {
      await walk.next()
    } catch (error) {
      throw translateLookupError(error, cursor)
    } finally {
      await walk.return()
    }
    return { items: [], next: null }
  }
  return await readWalkPage(
    node,
    keepable ? key : undefined,
    walk,
    undefined,
    limit,
    cursor !== undefined && !cursor.inclusive ? cursor.hash : undefined,
    cursor,
  )
}

/**
 * Reads `limit` items of a walk and one more, which only tells where the next page starts: that one and the
 * walk, still open, are kept for the next page when `key` is given, else the walk is closed.
 */
async function readWalkPage(
  node: NodeContext,
  key: string | undefined,
  walk: AsyncIterator<HeaderRef, void, undefined>,
  first: HeaderRef | undefined,
  limit: number,
  skip: Buffer | undefined,
  cursor: Cursor | undefined,
): Promise<StoredPage<HeaderRef>> {
  const items: HeaderRef[] = []
  let following: HeaderRef | undefined
  let pending = first
  let skipping = skip
  try {
    for (;;) {
      let ref: HeaderRef
      if (pending !== undefined) {
        ref = pending
        pending = undefined
      } else {
        const step = await walk.next()
        if (step.done === true) break
        ref = step.value
      }
      // An `exclusive:` cursor starts after its block, which the walk yields first when it is on the branch.
      if (skipping !== undefined) {
        const skipped = skipping
        skipping = undefined
        if (ref.hash.equals(skipped)) continue
      }
      if (items.length >= limit) {
        following = ref
        break
      }
      items.push(ref)
    }
  } catch (error) {
    throw translateLookupError(error, cursor)
  }
  if (following === undefined) return { items, next: null }
  const next = formatCursor({ inclusive: true, hash: following.hash })
  if (key === undefined) await walk.return?.()
  else node.branchWalks.keep(key + next, { iterator: walk, following })
  return { items, next }
}

/** Maps the lower layers' "not found" errors to the server's KeyNotFoundError; other errors pass. */
export function translateLookupError(error: unknown, cursor: Cursor | undefined): unknown {
  const code = (error as { code?: unknown } | null)?.code
  const hash = (error as { hash?: unknown }).hash
  if (code === 'CURSOR_NOT_FOUND')
    return new KeyNotFoundError('CURSOR_NOT_FOUND', cursor === undefined ? '' : encodeHash(cursor.hash), 'Cursor block', { cause: error })
  if (code === 'BLOCK_NOT_FOUND' && hash instanceof Uint8Array)
    return new KeyNotFoundError('BLOCK_NOT_FOUND', encodeHash(hash), 'Upper bound', { cause: error })
  return error
}

const pageClose = Buffer.from(']')
const comma = Buffer.from(',')

/** Writes `{"limit":n,"items":[...],"next":...}` from already serialised items; an empty final page follows the profile. */
export function writePage(
  node: NodeContext,
  ctx: Context,
  items: readonly Buffer[],
  next: string | null,
  contentType: string = contentTypes.json,
): void {
  if (items.length === 0 && next === null && node.rules.noMatch === 'problem-404') throw new NoMatchingBlocksError()
  const parts: Buffer[] = [Buffer.from(`{"limit":${items.length},"items":[`)]
  items.forEach((item, index) => {
    if (index > 0) parts.push(comma)
    parts.push(item)
  })
  parts.push(pageClose, Buffer.from(`,"next":${JSON.stringify(next)}}`))
  writeJson(ctx, Buffer.concat(parts), contentType)
}

/** Writes a JSON body from bytes. */
export function writeJson(ctx: Context, bytes: Buffer, contentType: string = contentTypes.json): void {
  // The type first: a body set without one makes Koa look up a default type it would then drop.
  ctx.set('content-type', contentType)
  ctx.body = bytes
}
