import { mapKeyOfHash } from '@weft/hash-text'
import type { HeaderRef, HeaderSource } from './header-source.js'

/** A `HeaderSource` held in a Map: for tests, examples, and trees small enough to keep in memory. */
export class MemoryHeaderSource implements HeaderSource {
  readonly #refs = new Map<string, HeaderRef>()

  /** A source holding `refs`; a later ref with the hash of an earlier one replaces it. */
  constructor(refs: Iterable<HeaderRef> = []) {
    for (const ref of refs) this.add(ref)
  }

  /** How many blocks the source holds. */
  get size(): number {
    return this.#refs.size
  }

  /** Adds (or replaces) the block `ref.hash`. */
  add(ref: HeaderRef): void {
    this.#refs.set(mapKeyOfHash(ref.hash), ref)
  }

  /** The ref of `hash`, or `undefined`. */
  get(hash: Uint8Array): HeaderRef | undefined {
    return this.#refs.get(mapKeyOfHash(hash))
  }

  /** Every ref held, in the order they were first added. */
  refs(): IterableIterator<HeaderRef> {
    return this.#refs.values()
  }

  async getRefs(hashes: readonly Uint8Array[]): Promise<Array<HeaderRef | undefined>> {
    return hashes.map((hash) => this.get(hash))
  }
}
