import { decodeHeader } from '@weft/block'
import type { HeaderRef } from '@weft/traversal'
import { CorruptStoreError } from './errors.js'
import { type BlockRecord, blockKey, type ChainDb, decodeBlockRecord, decodeHashRecord, hashIndexKey, payloadKey } from './keys.js'
import type { RecentHeader } from './recent-headers.js'

// Reads of at most this many keys are synchronous point reads: each costs microseconds, while one
// round trip through the thread pool (getMany) costs tens of them and dominated one-block inserts.
const syncReadLimit = 16
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
