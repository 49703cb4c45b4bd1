import { InconsistentSourceError } from './errors.js'

/** What the traversals need to know of a block header. */
export interface HeaderRef {
  hash: Buffer
  parent: Buffer
  height: number
  chainId: number
}

/** Looks headers up by hash, many at once; the answer is in the order asked, `undefined` for unknown hashes. */
export interface HeaderSource {
  getRefs(hashes: readonly Uint8Array[]): Promise<Array<HeaderRef | undefined>>
}

/**
 * A `HeaderSource` that also finds an ancestor itself, cheaper than one `getRefs` round per height
 * (a store reading a range of heights at once). `ancestorAt`, `isAncestor` and `forkPoint` use it
 * when the source has it; it must answer as those walks would.
 */
export interface AncestorSource extends HeaderSource {
  /** The ancestor-or-self of `hash` at `height`; `undefined` when the block or that ancestor is unknown, or `height` is not an integer from 0 up. */
  ancestorAt(hash: Uint8Array, height: number): Promise<HeaderRef | undefined>
}

/** Whether `source` offers `ancestorAt`. */
export function isAncestorSource(source: HeaderSource): source is AncestorSource {
  return typeof (source as Partial<AncestorSource>).ancestorAt === 'function'
}

/** Looks hashes up through `source`, skipping empty batches and refusing an answer of the wrong length. */
export async function lookup(source: HeaderSource, hashes: readonly Uint8Array[]): Promise<Array<HeaderRef | undefined>> {
  if (hashes.length === 0) return []
  const refs = await source.getRefs(hashes)
  if (refs.length !== hashes.length) {
    throw new InconsistentSourceError(`Expected getRefs to answer ${hashes.length} entries, received ${refs.length}`)
  }
  return refs
}

/** Returns `parent`, refusing one at or above its child's height: a walk over it would never end. */
export function checkParent(parent: HeaderRef | undefined, child: HeaderRef): HeaderRef | undefined {
  if (parent !== undefined && parent.height >= child.height) {
    throw new InconsistentSourceError(
      `Expected the parent of a block at height ${child.height} to be lower, received height ${parent.height}`,
    )
  }
  return parent
}

/** The parent of `child`, or `undefined` when the source does not know it (the genesis has none). */
export async function parentOf(source: HeaderSource, child: HeaderRef): Promise<HeaderRef | undefined> {
  const [parent] = await lookup(source, [child.parent])
  return checkParent(parent, child)
}

/** Returns `found`, refusing an `ancestorAt` answer at another height than asked: a walk over it might never end. */
export function checkAncestor(found: HeaderRef | undefined, height: number): HeaderRef | undefined {
  if (found !== undefined && found.height !== height) {
    throw new InconsistentSourceError(`Expected ancestorAt to answer a block at height ${height}, received height ${found.height}`)
  }
  return found
}
