import type { ClassicLevel, Iterator } from 'classic-level'
import type { RangeQuery } from './chain-store.js'
import { CursorNotFoundError } from './errors.js'
import {
  blockKey,
  blockKeyHigh,
  blockKeyLow,
  type ChainDb,
  decodeHashRecord,
  decodeRangeItem,
  hashIndexKey,
  type RangeItem,
} from './keys.js'

/** Key bounds of a range over block records; `undefined` for a range known to be empty. */
export type RangeBounds = { gte: Buffer; lte: Buffer } | { gt: Buffer; lte: Buffer } | undefined

/** The key bounds of `query`: its start block is looked up, and refused unless it is stored on the chain. */
export async function rangeBounds(db: ChainDb, query: RangeQuery): Promise<RangeBounds> {
  const { chain } = query
  const minheight = Math.max(0, query.minheight ?? 0)
  const maxheight = query.maxheight ?? Number.MAX_SAFE_INTEGER
  let lower = blockKeyLow(chain, minheight)
  let lowerInclusive = true
  if (query.start !== undefined) {
    const indexValue = await db.get(hashIndexKey(query.start.hash))
    const record = indexValue === undefined ? undefined : decodeHashRecord(indexValue)
    if (record === undefined || record.chainId !== chain) throw new CursorNotFoundError(query.start.hash, chain)
    const startKey = blockKey(chain, record.height, query.start.hash)
    // A start below minheight still starts at minheight: the bounds always apply.
    if (Buffer.compare(startKey, lower) >= 0) {
      lower = startKey
      lowerInclusive = query.start.inclusive
    }
  }
  if (maxheight < minheight) return undefined
  const upper = blockKeyHigh(chain, maxheight)
  return lowerInclusive ? { gte: lower, lte: upper } : { gt: lower, lte: upper }
}

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
  #items: Array<IteratorYieldResult<RangeItem>> = []
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

  next(): Promise<IteratorResult<RangeItem, undefined>> {
    // Not an async function: a buffered item costs one resolved promise and nothing more.
    if (this.#at < this.#items.length) return Promise.resolve(this.#items[this.#at++]!)
    return this.#nextBatch()
  }

  async #nextBatch(): Promise<IteratorResult<RangeItem, undefined>> {
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
    // Results are built per batch, so that handing one out is an index step and a resolved promise.
    this.#items = entries.map(([key, value]) => ({ value: decodeRangeItem(key, value), done: false }))
    this.#at = 1
    return this.#items[0]!
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
