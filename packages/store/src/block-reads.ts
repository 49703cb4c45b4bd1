import { decodeHeader } from '@weft/block'
import { mapKeyOfHash } from '@weft/hash-text'
import type { HeaderRef } from '@weft/traversal'
import { CorruptStoreError } from './errors.js'
import {
  type BlockRecord,
  blockKey,
  blockKeyHigh,
  blockKeyLow,
  type ChainDb,
  decodeBlockRecord,
  decodeHashRecord,
  hashIndexKey,
  hashOfBlockKey,
  payloadKey,
} from './keys.js'
import type { RecentHeader } from './recent-headers.js'

// Reads of at most this many keys are synchronous point reads: each costs microseconds, while one
// round trip through the thread pool (getMany) costs tens of them and dominated one-block inserts.
const syncReadLimit = 16
// Heights of one chain closer than this are checked by one range read (see `storedAmong`).
const spanGap = 16
const blockJsonOpen = Buffer.from('{"header":')
const blockJsonMiddle = Buffer.from(',"payloadWithOutputs":')
const blockJsonClose = Buffer.from('}')

/** How a read reaches the database: `near` reads a few keys synchronously (the insert path), `pool` always uses getMany. */
export type ReadMode = 'near' | 'pool'

/** Reads of stored blocks by hash, every one batched: the hash index in one read, then the records in one. */
export class BlockReads {
  readonly #db: ChainDb

  constructor(db: ChainDb) {
    this.#db = db
  }

  /** Reads `keys` in order: with `near`, up to 16 synchronously; otherwise, or beyond, with one getMany. */
  async read(keys: readonly Buffer[], mode: ReadMode): Promise<Array<Buffer | undefined>> {
    if (keys.length === 0) return []
    if (mode === 'near' && keys.length <= syncReadLimit) return keys.map((key) => this.#db.getSync(key))
    return this.#db.getMany(keys as Buffer[])
  }

  /**
   * Whether each of `blocks` is stored, in order. A few are looked up in the hash index; more are
   * found by reading the block keys of each chain over the heights they span, a range read per run
   * of near heights. A point read of a key that is not stored examines a table file on every level,
   * and LevelDB charges each such read to the first file, which it compacts once the charges reach
   * its allowance (about one per 16 KiB of the file). A bulk load asks for every block it inserts,
   * none of them stored yet: by point reads, these compactions more than doubled what LevelDB wrote
   * (a 1,000,000-block load wrote 17.8 times what its tables held, against 7.0). Range reads are not
   * charged this way. They run one after another: run at once, they raised a syncing node's peak
   * memory by 30-40 MiB.
   */
  async storedAmong(blocks: ReadonlyArray<{ chainId: number; height: number; hash: Uint8Array }>): Promise<boolean[]> {
    if (blocks.length <= syncReadLimit) return blocks.map((block) => this.#db.getSync(hashIndexKey(block.hash)) !== undefined)
    const stored = new Set<string>()
    for (const [chain, low, high] of heightSpans(blocks))
      for (const key of await this.#db.keys({ gte: blockKeyLow(chain, low), lte: blockKeyHigh(chain, high) }).all())
        stored.add(mapKeyOfHash(hashOfBlockKey(key)))
    return blocks.map((block) => stored.has(mapKeyOfHash(block.hash)))
  }

  /** The hash-index refs of `hashes`, in order, `undefined` for unknown ones. */
  async refs(hashes: readonly Uint8Array[]): Promise<Array<HeaderRef | undefined>> {
    // A branch walk asks for one line's parent per height: point reads keep each step cheap.
    const values = await this.read(hashes.map(hashIndexKey), 'near')
    return values.map((value, index) => {
      if (value === undefined) return undefined
      const record = decodeHashRecord(value)
      return { hash: Buffer.from(hashes[index]!), parent: record.parent, height: record.height, chainId: record.chainId }
    })
  }

  /** The block records of `hashes`, in order, `undefined` for unknown ones. */
  async records(hashes: readonly Uint8Array[], mode: ReadMode): Promise<Array<BlockRecord | undefined>> {
    const indexValues = await this.read(hashes.map(hashIndexKey), mode)
    const found = hashes.flatMap((hash, index) => {
      const value = indexValues[index]
      return value === undefined ? [] : [{ index, hash, record: decodeHashRecord(value) }]
    })
    const values = await this.read(
      found.map(({ hash, record }) => blockKey(record.chainId, record.height, hash)),
      mode,
    )
    const records: Array<BlockRecord | undefined> = new Array<BlockRecord | undefined>(hashes.length).fill(undefined)
    found.forEach(({ index, hash }, at) => {
      const value = values[at]
      if (value === undefined)
        throw new CorruptStoreError(`block ${Buffer.from(hash).toString('base64url')} is in the hash index but has no record`)
      records[index] = decodeBlockRecord(value)
    })
    return records
  }

  /** The decoded headers of `hashes` with their JSON and transaction counts, in order. */
  async storedHeaders(hashes: readonly Uint8Array[], mode: ReadMode): Promise<Array<RecentHeader | undefined>> {
    return (await this.records(hashes, mode)).map(
      (record) => record && { header: decodeHeader(record.headerBinary), headerJson: record.headerJson, txCount: record.txCount },
    )
  }

  /** The full-block JSON of `hashes`, in order, `undefined` for unknown ones. */
  async blocksJson(hashes: readonly Uint8Array[]): Promise<Array<Buffer | undefined>> {
    const records = await this.records(hashes, 'pool')
    const found = records.filter((record) => record !== undefined)
    const blocks = this.recordsJson(found)
    let at = 0
    return records.map((record) => (record === undefined ? undefined : blocks[at++]))
  }

  /** The full-block JSON of stored records: their header JSON and their payload, concatenated (no read: a record holds both). */
  recordsJson(records: ReadonlyArray<{ headerJson: Buffer; payloadJson: Buffer }>): Buffer[] {
    return records.map((record) => Buffer.concat([blockJsonOpen, record.headerJson, blockJsonMiddle, record.payloadJson, blockJsonClose]))
  }

  /** The payload JSON of `payloadHash`, from a block that holds it (the payload index names one). */
  async payloadJson(payloadHash: Uint8Array): Promise<Buffer | undefined> {
    const recordKey = await this.#db.get(payloadKey(payloadHash))
    if (recordKey === undefined) return undefined
    const record = await this.#db.get(recordKey)
    if (record === undefined)
      throw new CorruptStoreError(
        `payload ${Buffer.from(payloadHash).toString('base64url')} is in the payload index but its block has no record`,
      )
    return decodeBlockRecord(record).payloadJson
  }
}

// The runs of near heights (no gap wider than `spanGap`) of each chain among `blocks`.
function heightSpans(blocks: ReadonlyArray<{ chainId: number; height: number }>): Array<[chain: number, low: number, high: number]> {
  const heights = new Map<number, number[]>()
  for (const { chainId, height } of blocks) {
    const list = heights.get(chainId)
    if (list === undefined) heights.set(chainId, [height])
    else list.push(height)
  }
  const spans: Array<[chain: number, low: number, high: number]> = []
  for (const [chain, list] of heights) {
    list.sort((a, b) => a - b)
    let low = list[0]!
    let high = low
    for (const height of list) {
      if (height - high > spanGap) {
        spans.push([chain, low, high])
        low = height
      }
      high = height
    }
    spans.push([chain, low, high])
  }
  return spans
}
