import type { ClassicLevel, Iterator } from 'classic-level'
import { decodeBlockRecord, hashOfBlockKey, heightOfBlockKey } from './keys.js'

/** One block of an ordered range: stored bytes, never re-serialised. */
export interface RangeItem {
  hash: Buffer
  height: number
  headerJson: Buffer
  headerBinary: Buffer
  payloadHash: Buffer
}

/** Key bounds of a range over block records; `undefined` for a range known to be empty. */
export type RangeBounds = { gte: Buffer; lte: Buffer } | { gt: Buffer; lte: Buffer } | undefined

// Entries read per native call: small first, since a page usually stops after limit + 1 items,
// then doubling so that long reads pay one promise per batch instead of one per entry.
const firstBatch = 16
const largestBatch = 1024

/**
 * An async iterator over block records between bounds that `resolveBounds` computes on the first
 * `next()` (so that its errors surface there); `return()` releases the classic-level iterator.
 */
export class RangeReader implements AsyncIterableIterator<RangeItem> {
  readonly #db: ClassicLevel<Buffer, Buffer>
  readonly #resolveBounds: () => Promise<RangeBounds>
  #iterator: Iterator<ClassicLevel<Buffer, Buffer>, Buffer, Buffer> | undefined
  #items: RangeItem[] = []
  #at = 0
  #batch = firstBatch
  #state: 'new' | 'open' | 'done' = 'new'

  constructor(db: ClassicLevel<Buffer, Buffer>, resolveBounds: () => Promise<RangeBounds>) {
    this.#db = db
    this.#resolveBounds = resolveBounds
  }

  [Symbol.asyncIterator](): this {
    return this
  }

  async next(): Promise<IteratorResult<RangeItem, undefined>> {
    if (this.#at < this.#items.length) return { value: this.#items[this.#at++]!, done: false }
    if (this.#state === 'new') {
      this.#state = 'done'
      const bounds = await this.#resolveBounds()
      if (bounds === undefined) return { value: undefined, done: true }
      this.#iterator = this.#db.iterator<Buffer, Buffer>(bounds)
      this.#state = 'open'
    }
    if (this.#state === 'done') return { value: undefined, done: true }
    const entries = await this.#iterator!.nextv(this.#batch)
    this.#batch = Math.min(this.#batch * 2, largestBatch)
    if (entries.length === 0) return this.return()
    this.#items = entries.map(([key, value]) => {
      const record = decodeBlockRecord(value)
      return { hash: hashOfBlockKey(key), height: heightOfBlockKey(key), headerJson: record.headerJson, headerBinary: record.headerBinary, payloadHash: record.payloadHash }
    })
    this.#at = 1
    return { value: this.#items[0]!, done: false }
  }

  async return(): Promise<IteratorResult<RangeItem, undefined>> {
    this.#state = 'done'
    this.#items = []
    const iterator = this.#iterator
    this.#iterator = undefined
    await iterator?.close()
    return { value: undefined, done: true }
  }
}
