import type { Header } from '@weft/block'
import { mapKeyOfHash } from '@weft/hash-text'

/** A stored header with what announcing it needs: its spec-profile JSON and transaction count. */
export interface RecentHeader {
  header: Header
  headerJson: Buffer
  txCount: number
}

/**
 * The most recently stored headers, at most `capacity` of them, oldest evicted first. The next
 * block of a chain almost always names one of them as parent, so that inserts need no disk read
 * for the parent; every entry is durable (added only once its batch is written).
 */
export class RecentHeaders {
  readonly #capacity: number
  readonly #entries = new Map<string, RecentHeader>()

  constructor(capacity: number) {
    this.#capacity = Math.max(1, capacity)
  }

  /** The entry of `key` (a `mapKeyOfHash`), if it is still held. */
  get(key: string): RecentHeader | undefined {
    return this.#entries.get(key)
  }

  /** Whether `key` (a `mapKeyOfHash`) is held: then its block is stored. */
  has(key: string): boolean {
    return this.#entries.has(key)
  }

  /** Remembers a stored header, evicting the oldest entry beyond the capacity. */
  add(entry: RecentHeader): void {
    const key = mapKeyOfHash(entry.header.hash)
    if (this.#entries.has(key)) return
    this.#entries.set(key, entry)
    if (this.#entries.size > this.#capacity) this.#entries.delete(this.#entries.keys().next().value!)
  }
}
