import type { HeaderRef } from '@weft/traversal'

/** A branch walk suspended after a page: its live iterator and the block it already read past the page (the `next` cursor's block). */
export interface SuspendedWalk {
  readonly iterator: AsyncIterator<HeaderRef, void, undefined>
  readonly following: HeaderRef
}

/** Bounds of a `BranchContinuations` cache. */
export interface BranchContinuationOptions {
  /** Most walks kept at once; keeping one more ends the oldest. */
  readonly maxEntries: number
  /** Milliseconds a kept walk waits for its next page before it is ended. */
  readonly ttlMs: number
}

/** The defaults: enough for many clients walking at once, short enough that abandoned walks go soon. */
export const defaultBranchContinuationOptions: BranchContinuationOptions = { maxEntries: 256, ttlMs: 60_000 }

interface Entry {
  readonly walk: SuspendedWalk
  readonly expires: number
}

/**
 * A small LRU of suspended branch walks, keyed by everything that defines a walk and the cursor its
 * page issued. Resuming a branch at a cursor otherwise re-walks from the upper bounds down to the
 * cursor, so a whole walk paged through `next` costs the square of its length; continuing the walk
 * that issued the cursor costs only the page. A walk is handed out once (`take` removes it); any
 * walk that leaves the cache otherwise (evicted, expired, replaced, closed) has `return()` called.
 */
export class BranchContinuations {
  // Insertion order is age order: walks are never refreshed, only taken out and kept again.
  readonly #entries = new Map<string, Entry>()
  readonly #options: BranchContinuationOptions
  readonly #ending = new Set<Promise<void>>()
  #timer: NodeJS.Timeout | undefined
  #closed = false

  constructor(options: BranchContinuationOptions = defaultBranchContinuationOptions) {
    this.#options = options
  }

  /** Number of walks kept. */
  get size(): number {
    return this.#entries.size
  }

  /** Takes the walk kept under `key` out of the cache, or undefined when there is none (or it expired). */
  take(key: string): SuspendedWalk | undefined {
    this.#sweep()
    const entry = this.#entries.get(key)
    if (entry === undefined) return undefined
    this.#entries.delete(key)
    return entry.walk
  }

  /** Keeps a walk for the request that comes back with its cursor; after `close` it is ended at once. */
  keep(key: string, walk: SuspendedWalk): void {
    if (this.#closed || this.#options.maxEntries <= 0) {
      this.#end(walk)
      return
    }
    const replaced = this.#entries.get(key)
    if (replaced !== undefined) {
      this.#entries.delete(key)
      this.#end(replaced.walk)
    }
    this.#entries.set(key, { walk, expires: Date.now() + this.#options.ttlMs })
    for (const [oldestKey, oldest] of this.#entries) {
      if (this.#entries.size <= this.#options.maxEntries) break
      this.#entries.delete(oldestKey)
      this.#end(oldest.walk)
    }
    this.#schedule()
  }

  /** Ends every kept walk and refuses new ones; resolves once their `return()` calls have settled. */
  async close(): Promise<void> {
    this.#closed = true
    clearTimeout(this.#timer)
    this.#timer = undefined
    for (const entry of this.#entries.values()) this.#end(entry.walk)
    this.#entries.clear()
    await Promise.all(this.#ending)
  }

  #sweep(): void {
    const now = Date.now()
    for (const [key, entry] of this.#entries) {
      if (entry.expires > now) break
      this.#entries.delete(key)
      this.#end(entry.walk)
    }
  }

  // One timer, for the oldest walk: abandoned walks are ended even when no request comes.
  #schedule(): void {
    if (this.#timer !== undefined) return
    const oldest = this.#entries.values().next().value
    if (oldest === undefined) return
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined
        this.#sweep()
        this.#schedule()
      },
      Math.max(0, oldest.expires - Date.now()),
    ).unref()
  }

  #end(walk: SuspendedWalk): void {
    // A walk that fails while ending has nothing left to answer: its error has no one to go to.
    const ending: Promise<void> = Promise.resolve(walk.iterator.return?.())
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => this.#ending.delete(ending))
    this.#ending.add(ending)
  }
}
