import type { Iterator } from 'classic-level'
import { blockKeyHigh, blockKeyLow, type ChainDb, hashOfBlockKey, heightOfBlockKey } from './keys.js'

type Entry = [key: Buffer, value: Buffer]

// Entries read per native call: small first (a reorg walk usually ends a few heights down), then
// doubling, so that a deep walk pays one round trip per thousand blocks rather than one per block.
const firstBatch = 32
const largestBatch = 1024

/**
 * Reads the block records of one chain from `top` down to `bottom` (heights), in batches, with one
 * descending classic-level iterator: keys are (chain, height, hash) big-endian, so each batch holds
 * every candidate of its heights, orphans included. `find` asks for a block by hash at its height;
 * the heights asked must never increase, which is how a walk down parent links asks.
 */
export class DescendingScan {
  readonly #iterator: Iterator<ChainDb, Buffer, Buffer>
  #entries: Entry[] = []
  #at = 0
  #batch = firstBatch
  #done = false

  constructor(db: ChainDb, chain: number, top: number, bottom: number) {
    this.#iterator = db.iterator({ gte: blockKeyLow(chain, bottom), lte: blockKeyHigh(chain, top), reverse: true })
  }

  /** The record (key and value) of block `hash` at `height`, or `undefined` when the chain has none. */
  async find(hash: Uint8Array, height: number): Promise<Entry | undefined> {
    for (;;) {
      // Entries above `height` are behind the walk; entries at it stay, another line may ask there too.
      while (this.#at < this.#entries.length && heightOfBlockKey(this.#entries[this.#at]![0]) > height) this.#at++
      let at = this.#at
      for (; at < this.#entries.length && heightOfBlockKey(this.#entries[at]![0]) === height; at++) {
        const entry = this.#entries[at]!
        if (hashOfBlockKey(entry[0]).equals(hash)) return entry
      }
      // An entry below `height` was read, or there are no more: every candidate was seen.
      if (at < this.#entries.length || this.#done) return undefined
      await this.#readMore()
    }
  }

  /** Releases the iterator; a scan is closed once its walk ends. */
  async close(): Promise<void> {
    await this.#iterator.close()
  }

  async #readMore(): Promise<void> {
    const more = await this.#iterator.nextv(this.#batch)
    this.#batch = Math.min(this.#batch * 2, largestBatch)
    if (more.length === 0) this.#done = true
    // The entries kept are those at the height being searched: at most a few blocks.
    this.#entries = this.#at === this.#entries.length ? more : [...this.#entries.slice(this.#at), ...more]
    this.#at = 0
  }
}
