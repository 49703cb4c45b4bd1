import { type Cursor, formatCursor, readResumablePage, resolveLimit } from '@weft/cursor'
import { errorCode } from '@weft/errors'
import { mapKeyOfHash } from '@weft/hash-text'
import { type ChainStore, CursorNotFoundError } from '@weft/store'
import { branch, type HeaderRef, MAX_BRANCH_BOUNDS } from '@weft/traversal'
import type { ParsedBounds } from './body-checks.js'
import type { BranchContinuations } from './branch-continuations.js'
import type { PageQuery } from './page-query.js'
import { boundsAreEmpty, type ChainReads, matchedPage, type StoredPage } from './stored-page.js'

type Walk = AsyncIterator<HeaderRef, void, undefined>

/** A page of a branch; `final` when every bound is stored, so that the same request is answered the same forever. */
export interface BranchPage extends StoredPage<HeaderRef> {
  readonly final: boolean
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
 * A page that ends with a `next` cursor keeps its walk in `walks`, and a request coming back with
 * that cursor (same chain, bounds and heights) continues it instead of walking down from the bounds again.
 */
export async function readBranchPage(
  reads: ChainReads,
  walks: BranchContinuations,
  chain: number,
  query: PageQuery,
  bounds: ParsedBounds,
  cap: number,
): Promise<BranchPage> {
  const { cursor } = query
  const limit = resolveLimit(query.limit ?? cap, cap)
  const key = walkKey(chain, query, bounds)
  // Kept walks are keyed by the cursors this node issued, and it issues `inclusive:` ones only.
  if (cursor?.inclusive === true) {
    const kept = walks.take(key + formatCursor(cursor))
    // A walk is kept only when all its bounds were stored: it is final.
    if (kept !== undefined) {
      const page = matchedPage(reads.rules, await readPage(walks, key, kept.iterator, limit, { first: kept.following }))
      return { ...page, final: true }
    }
  }
  const upper =
    reads.rules.branchMaxheight === 'ancestor-bounds' && query.maxheight !== undefined
      ? await upperBoundsAt(reads.store, chain, bounds.upper, query.maxheight)
      : bounds.upper
  const walk = branch(reads.store, {
    chain,
    upper,
    lower: bounds.lower,
    ...(query.minheight === undefined ? {} : { minheight: query.minheight }),
    ...(query.maxheight === undefined ? {} : { maxheight: query.maxheight }),
    ...(cursor === undefined ? {} : { start: cursor.hash }),
  })
  let ownsWalk = true
  try {
    // The walk's first step checks the bounds: more than 32 (a 400 about the body) is answered before a
    // 404 about the cursor, an unknown upper bound after it. Upper bounds are checked even when the height
    // bounds exclude everything.
    let first: IteratorResult<HeaderRef, void> | undefined
    let failure: { error: unknown } | undefined
    try {
      first = await walk.next()
    } catch (error) {
      if (errorCode(error) === 'TOO_MANY_BOUNDS') throw error
      failure = { error }
    }
    // One batch: the cursor block and the lower bounds. A walk may be kept only when every lower bound is
    // stored already: one stored later would change what a re-walk excludes.
    const lowerAt = cursor === undefined ? 0 : 1
    const refs = await reads.store.getRefs(cursor === undefined ? bounds.lower : [cursor.hash, ...bounds.lower])
    if (cursor !== undefined) {
      const ref = refs[0]
      if (ref === undefined || ref.chainId !== chain) throw new CursorNotFoundError(cursor.hash, chain)
    }
    if (failure !== undefined) throw failure.error
    // An unknown lower bound excludes nothing now, but will once it is stored: such an answer may change.
    const keepable = refs.slice(lowerAt).every((ref) => ref !== undefined)
    if (boundsAreEmpty(query) || first?.done !== false) return { ...matchedPage(reads.rules, { items: [], next: null }), final: keepable }
    ownsWalk = false
    const page = await readPage(walks, keepable ? key : undefined, walk, limit, { first: first.value, skipFirst: exclusiveBlock(cursor) })
    return { ...matchedPage(reads.rules, page), final: keepable }
  } finally {
    if (ownsWalk) await walk.return?.()
  }
}

/**
 * The real node's `maxheight` on a branch: each upper bound is replaced by its ancestor at `maxheight`,
 * and one below `maxheight` (which has no such ancestor) is dropped. Bounds that the walk refuses (too
 * many, unknown, of another chain) are handed on unchanged, so that it answers them as usual.
 */
async function upperBoundsAt(store: ChainStore, chain: number, upper: readonly Buffer[], maxheight: number): Promise<Buffer[]> {
  if (upper.length > MAX_BRANCH_BOUNDS) return [...upper]
  const refs = await store.getRefs(upper)
  if (refs.some((ref) => ref === undefined || ref.chainId !== chain)) return [...upper]
  const replaced = new Map<string, Buffer>()
  for (const ref of refs as HeaderRef[]) {
    if (ref.height < maxheight) continue
    const at = ref.height === maxheight ? ref : await store.ancestorAt(ref.hash, maxheight)
    if (at !== undefined) replaced.set(mapKeyOfHash(at.hash), Buffer.from(at.hash))
  }
  return [...replaced.values()]
}

// An `exclusive:` cursor starts after its block, which the walk yields first when it is on the branch.
function exclusiveBlock(cursor: Cursor | undefined): ((ref: HeaderRef) => boolean) | undefined {
  if (cursor === undefined || cursor.inclusive) return undefined
  return (ref) => ref.hash.equals(cursor.hash)
}

/**
 * Reads a page of a walk; the one item read past it only tells where the next page starts: that one and the
 * walk, still open, are kept for the next page when `key` is given, else the walk is closed.
 */
async function readPage(
  walks: BranchContinuations,
  key: string | undefined,
  walk: Walk,
  limit: number,
  options: { first: HeaderRef | undefined; skipFirst?: ((ref: HeaderRef) => boolean) | undefined },
): Promise<StoredPage<HeaderRef>> {
  let kept = false
  try {
    const { items, following } = await readResumablePage(walk, { limit, ...options })
    if (following === undefined) return { items, next: null }
    const next = formatCursor({ inclusive: true, hash: following.hash })
    if (key !== undefined) {
      walks.keep(key + next, { iterator: walk, following })
      kept = true
    }
    return { items, next }
  } finally {
    if (!kept) await walk.return?.()
  }
}
