import { mapKeyOfHash } from '@weft/hash-text'
import type { HeaderRef, HeaderSource } from './header-source.js'
import { checkAncestor, checkParent, isAncestorSource, lookup, parentOf } from './header-source.js'

/** The ancestor-or-self of `hash` at `height`, or `undefined` when the block or that ancestor is unknown. */
export async function ancestorAt(source: HeaderSource, hash: Uint8Array, height: number): Promise<HeaderRef | undefined> {
  if (!Number.isSafeInteger(height) || height < 0) return undefined
  // A source that finds ancestors itself looks the block up too: one call in all.
  if (isAncestorSource(source)) return checkAncestor(await source.ancestorAt(hash, height), height)
  const [ref] = await lookup(source, [hash])
  return ref === undefined ? undefined : walkDownTo(source, ref, height)
}

/** Whether block `a` is an ancestor-or-self of block `b`; `false` when either is unknown. */
export async function isAncestor(source: HeaderSource, a: Uint8Array, b: Uint8Array): Promise<boolean> {
  const [refA, refB] = await lookup(source, [a, b])
  if (refA === undefined || refB === undefined || refA.chainId !== refB.chainId) return false
  const atHeightOfA = await walkDownTo(source, refB, refA.height)
  return atHeightOfA !== undefined && mapKeyOfHash(atHeightOfA.hash) === mapKeyOfHash(refA.hash)
}

/** The highest common ancestor-or-self of `a` and `b`, or `undefined` when there is none (or either is unknown). */
export async function forkPoint(source: HeaderSource, a: Uint8Array, b: Uint8Array): Promise<HeaderRef | undefined> {
  let [x, y] = await lookup(source, [a, b])
  if (x !== undefined && y !== undefined && x.chainId !== y.chainId) return undefined
  // A source that finds ancestors itself brings the higher block down to the other's height in one
  // call. Without an answer (a line that skips that height, or misses blocks) the steps below decide.
  if (x !== undefined && y !== undefined && x.height !== y.height && isAncestorSource(source)) {
    if (x.height > y.height) x = checkAncestor(await source.ancestorAt(x.hash, y.height), y.height) ?? x
    else y = checkAncestor(await source.ancestorAt(y.hash, x.height), x.height) ?? y
  }
  while (x !== undefined && y !== undefined) {
    if (x.height > y.height) x = await parentOf(source, x)
    else if (y.height > x.height) y = await parentOf(source, y)
    else if (mapKeyOfHash(x.hash) === mapKeyOfHash(y.hash)) return x
    else {
      // Same height, different blocks: step both in one batch.
      const [px, py] = await lookup(source, [x.parent, y.parent])
      x = checkParent(px, x)
      y = checkParent(py, y)
    }
  }
  return undefined
}

// `from`'s ancestor-or-self at `height` (at most from's own height).
async function walkDownTo(source: HeaderSource, from: HeaderRef, height: number): Promise<HeaderRef | undefined> {
  if (from.height > height && isAncestorSource(source)) return checkAncestor(await source.ancestorAt(from.hash, height), height)
  let ref: HeaderRef | undefined = from
  while (ref !== undefined && ref.height > height) ref = await parentOf(source, ref)
  return ref?.height === height ? ref : undefined
}
