import type { ClassicLevel } from 'classic-level'
import { CorruptStoreError } from './errors.js'

/** The store's classic-level database: keys and values as raw bytes. */
export type ChainDb = ClassicLevel<Buffer, Buffer>

/** One write of a batch: key and value as raw bytes. */
export type PutOperation = { type: 'put'; key: Buffer; value: Buffer }

// One classic-level database, keys and values as raw bytes. The first key byte names the record
// kind; every integer is big-endian so that byte order is numeric order (see README "Key layout").
export const metaPrefix = 0x6d // 'm'
export const blockPrefix = 0x62 // 'b'
export const hashPrefix = 0x68 // 'h'
export const payloadPrefix = 0x70 // 'p'
export const headPrefix = 0x63 // 'c'

const two32 = 2 ** 32
export const blockKeyLength = 1 + 4 + 8 + 32
export const hashRecordLength = 4 + 8 + 32
const zeroHash = Buffer.alloc(32, 0x00)
const fullHash = Buffer.alloc(32, 0xff)

/** The key of a meta record (`m` + ASCII name). */
export function metaKey(name: string): Buffer {
  return Buffer.concat([Buffer.of(metaPrefix), Buffer.from(name, 'ascii')])
}

/** `b | chain u32 | height u64 | hash 32`: ordered by chain, then height, then raw hash bytes. */
export function blockKey(chain: number, height: number, hash: Uint8Array): Buffer {
  const key = Buffer.allocUnsafe(blockKeyLength)
  key[0] = blockPrefix
  key.writeUInt32BE(chain, 1)
  key.writeUInt32BE(Math.floor(height / two32), 5)
  key.writeUInt32BE(height >>> 0, 9)
  key.set(hash, 13)
  return key
}

/** The lowest block key of `chain` at `height`. */
export function blockKeyLow(chain: number, height: number): Buffer {
  return blockKey(chain, height, zeroHash)
}

/** The highest block key of `chain` at `height`. */
export function blockKeyHigh(chain: number, height: number): Buffer {
  return blockKey(chain, height, fullHash)
}

/** Height stored in a block key. */
export function heightOfBlockKey(key: Buffer): number {
  return key.readUInt32BE(5) * two32 + key.readUInt32BE(9)
}

/** Hash stored in a block key (a view, not a copy). */
export function hashOfBlockKey(key: Buffer): Buffer {
  return key.subarray(13, 45)
}

/** `h | hash 32`: the hash index. */
export function hashIndexKey(hash: Uint8Array): Buffer {
  const key = Buffer.allocUnsafe(33)
  key[0] = hashPrefix
  key.set(hash, 1)
  return key
}

/** `p | payloadHash 32`: the payload index (value: the block key of a block that holds the payload). */
export function payloadKey(payloadHash: Uint8Array): Buffer {
  const key = Buffer.allocUnsafe(33)
  key[0] = payloadPrefix
  key.set(payloadHash, 1)
  return key
}

/** `c | chain u32`: the best head of a chain (value: its 32-byte hash). */
export function headKey(chain: number): Buffer {
  const key = Buffer.allocUnsafe(5)
  key[0] = headPrefix
  key.writeUInt32BE(chain, 1)
  return key
}

/** Chain stored in a head key. */
export function chainOfHeadKey(key: Buffer): number {
  return key.readUInt32BE(1)
}

/** What the hash index says about a block: where its record is, and its parent. */
export interface HashRecord {
  chainId: number
  height: number
  parent: Buffer
}

/** `chain u32 | height u64 | parent 32`: 44 bytes. */
export function encodeHashRecord(chain: number, height: number, parent: Uint8Array): Buffer {
  const value = Buffer.allocUnsafe(hashRecordLength)
  value.writeUInt32BE(chain, 0)
  value.writeUInt32BE(Math.floor(height / two32), 4)
  value.writeUInt32BE(height >>> 0, 8)
  value.set(parent, 12)
  return value
}

/** Reads a hash-index value; the parent is a view into `value`. */
export function decodeHashRecord(value: Buffer): HashRecord {
  if (value.length !== hashRecordLength)
    throw new CorruptStoreError(`a hash index record has ${value.length} bytes, expected ${hashRecordLength}`)
  return {
    chainId: value.readUInt32BE(0),
    height: value.readUInt32BE(4) * two32 + value.readUInt32BE(8),
    parent: value.subarray(12, 44),
  }
}

/** The parts of a block record; every buffer is a view into the stored value. */
export interface BlockRecord {
  payloadHash: Buffer
  txCount: number
  headerBinary: Buffer
  headerJson: Buffer
  /** The payload with outputs, JSON keys in contract order. */
  payloadJson: Buffer
}

const blockRecordHead = 32 + 4 + 4 + 4

/**
 * `payloadHash 32 | txCount u32 | binary length u32 | header JSON length u32 | header binary |
 * spec-profile header JSON | payload JSON`: a block and its payload in one record, so that a page
 * is one ordered read, whatever the store's size.
 */
export function encodeBlockRecord(record: Omit<BlockRecord, 'payloadJson'> & { payloadJson: Buffer | string }): Buffer {
  const payloadLength = typeof record.payloadJson === 'string' ? Buffer.byteLength(record.payloadJson) : record.payloadJson.length
  const jsonAt = blockRecordHead + record.headerBinary.length
  const payloadAt = jsonAt + record.headerJson.length
  const value = Buffer.allocUnsafe(payloadAt + payloadLength)
  value.set(record.payloadHash, 0)
  value.writeUInt32BE(record.txCount, 32)
  value.writeUInt32BE(record.headerBinary.length, 36)
  value.writeUInt32BE(record.headerJson.length, 40)
  record.headerBinary.copy(value, blockRecordHead)
  record.headerJson.copy(value, jsonAt)
  if (typeof record.payloadJson === 'string') value.write(record.payloadJson, payloadAt, 'utf8')
  else record.payloadJson.copy(value, payloadAt)
  return value
}

// Where the header JSON and the payload JSON of a record start, checked against its length.
function recordBounds(value: Buffer): [jsonAt: number, payloadAt: number] {
  if (value.length < blockRecordHead)
    throw new CorruptStoreError(`a block record has ${value.length} bytes, fewer than its ${blockRecordHead}-byte head`)
  const jsonAt = blockRecordHead + value.readUInt32BE(36)
  const payloadAt = jsonAt + value.readUInt32BE(40)
  if (payloadAt > value.length) throw new CorruptStoreError('a block record is shorter than its header lengths say')
  return [jsonAt, payloadAt]
}

/** Splits a block record into views without copying. */
export function decodeBlockRecord(value: Buffer): BlockRecord {
  const [jsonAt, payloadAt] = recordBounds(value)
  return {
    payloadHash: value.subarray(0, 32),
    txCount: value.readUInt32BE(32),
    headerBinary: value.subarray(blockRecordHead, jsonAt),
    headerJson: value.subarray(jsonAt, payloadAt),
    payloadJson: value.subarray(payloadAt),
  }
}

// The parent hash sits at bytes 16-48 of the binary header (after feature flags u64 and creation
// time i64: docs/wire/hashes.md, binary field order), so a walk down a chain reads it without decoding the header.
const parentInBinary = 16

/** The parent hash in a block record (a view), read from the header binary without decoding it. */
export function parentOfBlockRecord(value: Buffer): Buffer {
  const start = blockRecordHead + parentInBinary
  if (value.length < start + 32) throw new CorruptStoreError(`a block record has ${value.length} bytes, too few to hold a parent hash`)
  return value.subarray(start, start + 32)
}

/** One block of an ordered range: stored bytes, never re-serialised. */
export interface RangeItem {
  readonly hash: Buffer
  readonly height: number
  readonly headerJson: Buffer
  readonly headerBinary: Buffer
  readonly payloadHash: Buffer
  readonly payloadJson: Buffer
}

/** A range item from a block key and record: the height is read at once, the byte fields are
 * views made on access (a page of hashes never pays for header views). */
export function decodeRangeItem(key: Buffer, value: Buffer): RangeItem {
  return new StoredRangeItem(key, value)
}

class StoredRangeItem implements RangeItem {
  readonly height: number
  readonly #key: Buffer
  readonly #value: Buffer
  readonly #jsonAt: number
  readonly #payloadAt: number

  constructor(key: Buffer, value: Buffer) {
    ;[this.#jsonAt, this.#payloadAt] = recordBounds(value)
    this.height = key.readUInt32BE(5) * two32 + key.readUInt32BE(9)
    this.#key = key
    this.#value = value
  }

  get hash(): Buffer {
    return this.#key.subarray(13, 45)
  }

  get headerJson(): Buffer {
    return this.#value.subarray(this.#jsonAt, this.#payloadAt)
  }

  get headerBinary(): Buffer {
    return this.#value.subarray(blockRecordHead, this.#jsonAt)
  }

  get payloadHash(): Buffer {
    return this.#value.subarray(0, 32)
  }

  get payloadJson(): Buffer {
    return this.#value.subarray(this.#payloadAt)
  }
}
