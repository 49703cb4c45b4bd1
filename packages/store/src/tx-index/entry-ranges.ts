import { type DecodedEntry, decodeEntry, type KeyRange } from '@weft/index'
import type { ChainDb } from '../keys.js'

/** One item of a newest-first index entry (an event, a transfer, a block), with what orders it. */
export interface RangeItem {
  /** The key of the entry that holds it. */
  readonly key: Buffer
  /** The key's bytes after the range's prefix: height counted down, chain, hash prefix. Items of one block share it. */
  readonly suffix: Buffer
  readonly entry: DecodedEntry
  /** Its place among the entry's items, from 0. */
  readonly ordinal: number
  readonly position: number
  readonly index: number
}

/** Orders items as every page answers them: newest block first, then by position and event index. */
export function compareItems(
  a: Pick<RangeItem, 'suffix' | 'position' | 'index'>,
  b: Pick<RangeItem, 'suffix' | 'position' | 'index'>,
): number {
  return Buffer.compare(a.suffix, b.suffix) || a.position - b.position || a.index - b.index
}

// An entry's items as (position, index) pairs; a block entry is one item.
function itemsOf(entry: DecodedEntry): ReadonlyArray<{ position: number; index: number }> {
  return entry.kind === 'event' || entry.kind === 'account' ? entry.items : [{ position: 0, index: 0 }]
}

/**
 * Reads one newest-first index range item by item, entries fetched a batch at a time: the part of
 * a page read that merges several ranges (a module's names) in the answers' order.
 */
export class EntryRange {
  readonly #iterator
  readonly #prefixLength: number
  #buffered: Array<[Buffer, Buffer]> = []
  #entry: { key: Buffer; suffix: Buffer; decoded: DecodedEntry; items: ReadonlyArray<{ position: number; index: number }> } | undefined
  #ordinal = 0
  #ended = false
  /** Entries read from the database so far. */
  entriesRead = 0

  constructor(db: ChainDb, range: KeyRange, prefixLength: number) {
    this.#iterator = db.iterator({ gte: range.gte, lt: range.lt })
    this.#prefixLength = prefixLength
  }

  /** The item the range stands on, undefined once it is read to its end. */
  async current(): Promise<RangeItem | undefined> {
    while (this.#entry === undefined || this.#ordinal >= this.#entry.items.length) {
      if (!(await this.#nextEntry())) return undefined
    }
    const { key, suffix, decoded, items } = this.#entry
    const { position, index } = items[this.#ordinal]!
    return { key, suffix, entry: decoded, ordinal: this.#ordinal, position, index }
  }

  /** Moves past the current item. */
  advance(): void {
    this.#ordinal++
  }

  async #nextEntry(): Promise<boolean> {
    if (this.#buffered.length === 0) {
      if (this.#ended) return false
      // Batches grow from 16 entries: a page that ends soon reads little, a long scan few times.
      this.#buffered = (await this.#iterator.nextv(Math.min(1024, 16 << Math.min(6, Math.floor(this.entriesRead / 64))))).reverse()
      if (this.#buffered.length === 0) {
        this.#ended = true
        return false
      }
    }
    const [key, value] = this.#buffered.pop()!
    const decoded = decodeEntry(key, value)
    this.#entry = { key, suffix: key.subarray(this.#prefixLength), decoded, items: itemsOf(decoded) }
    this.#ordinal = 0
    this.entriesRead++
    return true
  }

  close(): Promise<void> {
    return this.#iterator.close()
  }
}
