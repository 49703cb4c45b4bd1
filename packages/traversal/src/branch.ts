import { mapKeyOfHash } from '@weft/hash-text'
import { TooManyBoundsError, UnknownBoundError } from './errors.js'
import type { AncestorSource, HeaderRef, HeaderSource } from './header-source.js'
import { checkAncestor, checkParent, isAncestorSource, lookup } from './header-source.js'

/** The most distinct upper (and, separately, lower) bounds a branch query may name by default. */
export const MAX_BRANCH_BOUNDS = 32

/** A branch query: see `branch`. */
export interface BranchOptions {
  chain: number
  upper: readonly Uint8Array[]
  lower: readonly Uint8Array[]
  minheight?: number
  maxheight?: number
  /** Resume at this block (inclusive), as named by an `inclusive:` cursor. */
  start?: Uint8Array
  /** Default `MAX_BRANCH_BOUNDS`. */
  maxBounds?: number
}

/**
 * Every block of `chain` that is an ancestor-or-self of some upper bound and of no lower bound, in
 * descending height, ties in ascending raw hash order, filtered to [minheight, maxheight].
 * Errors (TooManyBoundsError, UnknownBoundError) surface on the first `next()`.
 */
export async function* branch(source: HeaderSource, options: BranchOptions): AsyncGenerator<HeaderRef, void, undefined> {
  const { chain } = options
  const maxBounds = options.maxBounds ?? MAX_BRANCH_BOUNDS
  const upperHashes = distinct(options.upper)
  const lowerHashes = distinct(options.lower)
  if (upperHashes.length > maxBounds) throw new TooManyBoundsError('upper', upperHashes.length, maxBounds)
  if (lowerHashes.length > maxBounds) throw new TooManyBoundsError('lower', lowerHashes.length, maxBounds)

  const asked = options.start === undefined ? [...upperHashes, ...lowerHashes] : [...upperHashes, ...lowerHashes, options.start]
  const refs = await lookup(source, asked)
  // The frontiers: per line of descent, the block the walk has reached on it, keyed by hash so that lines merge.
  const upper = new Map<string, HeaderRef>()
  const lower = new Map<string, HeaderRef>()
  upperHashes.forEach((hash, index) => {
    const ref = refs[index]
    if (ref === undefined || ref.chainId !== chain) throw new UnknownBoundError(hash, chain)
    upper.set(mapKeyOfHash(ref.hash), ref)
  })
  lowerHashes.forEach((_, index) => {
    const ref = refs[upperHashes.length + index]
    // A lower bound that is unknown or on another chain excludes nothing.
    if (ref !== undefined && ref.chainId === chain) lower.set(mapKeyOfHash(ref.hash), ref)
  })

  const minheight = options.minheight ?? 0
  const maxheight = options.maxheight ?? Number.POSITIVE_INFINITY
  if (minheight > maxheight) return
  let start: HeaderRef | undefined
  if (options.start !== undefined) {
    start = refs[asked.length - 1]
    if (start === undefined || start.chainId !== chain || start.height < minheight || start.height > maxheight) return
  }
  const emitBelow = Math.min(maxheight, start?.height ?? Number.POSITIVE_INFINITY)
  const jumper = isAncestorSource(source) ? source : undefined
  // Upper lines yield nothing above emitBelow, so they start there (unless all are below the start
  // block or minheight: then the walk ends at once and a call would be wasted).
  if (jumper !== undefined && highest(upper) >= (start?.height ?? minheight)) await jumpAbove(jumper, upper, emitBelow)
  // The height lower lines were last brought down to: a line that has no block there is not asked again.
  let loweredTo = Number.NaN

  while (upper.size > 0) {
    const upperTop = highest(upper)
    if (upperTop < minheight) return
    // Once the walk is below the start block without having met it, the start is not on the branch.
    if (start !== undefined && upperTop < start.height) return
    // Above every upper line a lower line covers nothing but through its ancestors: it can start lower.
    if (jumper !== undefined && upperTop !== loweredTo && lower.size > 0 && highest(lower) > upperTop) {
      await jumpAbove(jumper, lower, upperTop)
      loweredTo = upperTop
    }
    // Lower lines above every upper line are walked down first: they may still cover the upper ones.
    const height = lower.size === 0 ? upperTop : Math.max(upperTop, highest(lower))
    const upperHere = takeAt(upper, height)
    const lowerHere = lower.size === 0 ? none : takeAt(lower, height)
    // The walk spends most heights on one line with no lower line there: the common case costs no copy or sort.
    const kept = lowerHere.length === 0 ? upperHere : upperHere.filter((ref) => !lowerHere.some((other) => other.hash.equals(ref.hash)))

    if (height <= emitBelow && kept.length > 0) {
      if (kept.length > 1) kept.sort((x, y) => Buffer.compare(x.hash, y.hash))
      let from = 0
      if (start !== undefined) {
        const startHash = start.hash
        from = kept.findIndex((ref) => ref.hash.equals(startHash))
        if (from < 0) return
        start = undefined
      }
      for (let index = from; index < kept.length; index++) yield kept[index] as HeaderRef
    }
    if (height <= minheight) return

    // One batch per height: the parents of every surviving upper line and of every lower line here.
    const asked: Buffer[] = []
    for (const ref of kept) asked.push(ref.parent)
    for (const ref of lowerHere) asked.push(ref.parent)
    const parents = await lookup(source, asked)
    for (const [index, ref] of kept.entries()) add(upper, checkParent(parents[index], ref))
    for (const [index, ref] of lowerHere.entries()) add(lower, checkParent(parents[kept.length + index], ref))
  }
}

const none: readonly HeaderRef[] = []

// Moves each block of `frontier` above `height` to its ancestor there, in one `ancestorAt` call
// instead of one round trip per height. A block whose line has no block there (a source whose lines
// skip heights) stays, and the walk steps it down as before.
async function jumpAbove(source: AncestorSource, frontier: Map<string, HeaderRef>, height: number): Promise<void> {
  const above = [...frontier].filter(([, ref]) => ref.height > height)
  const found = await Promise.all(above.map(([, ref]) => source.ancestorAt(ref.hash, height)))
  for (const [index, [key]] of above.entries()) {
    const ancestor = checkAncestor(found[index], height)
    if (ancestor === undefined) continue
    frontier.delete(key)
    frontier.set(mapKeyOfHash(ancestor.hash), ancestor)
  }
}

function distinct(hashes: readonly Uint8Array[]): Uint8Array[] {
  const seen = new Map<string, Uint8Array>()
  for (const hash of hashes) if (!seen.has(mapKeyOfHash(hash))) seen.set(mapKeyOfHash(hash), hash)
  return [...seen.values()]
}

function highest(frontier: ReadonlyMap<string, HeaderRef>): number {
  let top = Number.NEGATIVE_INFINITY
  for (const ref of frontier.values()) if (ref.height > top) top = ref.height
  return top
}

function takeAt(frontier: Map<string, HeaderRef>, height: number): HeaderRef[] {
  const here: HeaderRef[] = []
  for (const [key, ref] of frontier) {
    if (ref.height === height) {
      here.push(ref)
      frontier.delete(key)
    }
  }
  return here
}

// A line whose parent is unknown (genesis, or a store missing it) ends here.
function add(frontier: Map<string, HeaderRef>, ref: HeaderRef | undefined): void {
  if (ref !== undefined) frontier.set(mapKeyOfHash(ref.hash), ref)
}
