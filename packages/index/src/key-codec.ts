// The byte forms index keys are made of. Every integer is big-endian or an order-preserving varint,
// so that the byte order of keys is the order of the answers; texts carry their length in front,
// so that one text's keys are contiguous whatever bytes it holds.
import { InvalidIndexKeyError } from './errors.js'

/** The first byte of every index key ('i'): a namespace the store's own records ('b', 'h', 'p', 'c', 'm') do not use. */
export const INDEX_PREFIX = 0x69

/** The second byte of a key: which index it belongs to. */
export const IndexKind = {
  /** Request key -> places: 'r'. */
  transaction: 0x72,
  /** Events by module and name, newest first: 'e'. */
  event: 0x65,
  /** Transfers by account and token, newest first: 'a'. */
  account: 0x61,
  /** Blocks that hold transactions, newest first: 'b'. */
  block: 0x62,
  /** Later steps of a pact by pact id: 'p'. */
  pact: 0x70,
} as const
/** Which index a key belongs to. */
export type IndexKind = keyof typeof IndexKind

/** Bytes of a request key (or pact id) kept in keys: 96 bits tell apart every transaction there will be; readers check the full key in the payload. */
export const REQUEST_KEY_PREFIX_BYTES = 12
/** Bytes of a block hash kept in keys: enough to tell apart the few blocks at one chain and height. */
export const BLOCK_HASH_PREFIX_BYTES = 8
/** The longest text (module, event name, token, account) a key holds, in UTF-8 bytes; longer ones get no entry. */
export const MAX_TEXT_BYTES = 1024

/** Bytes of `value` (0 to 2^32 - 1) as an ordered varint: 1 below 241, at most 5. */
export function varintLength(value: number): number {
  if (value <= 240) return 1
  if (value <= 2287) return 2
  if (value <= 67823) return 3
  return value <= 0xffffff ? 4 : 5
}

/**
 * Writes `value` as SQLite4's order-preserving varint at `at`; returns the offset after it. Byte
 * order of the encodings is numeric order, and small numbers (positions, event indexes, chains)
 * take one byte.
 */
export function writeVarint(bytes: Buffer, at: number, value: number): number {
  if (value <= 240) {
    bytes[at] = value
    return at + 1
  }
  if (value <= 2287) {
    bytes[at] = ((value - 240) >> 8) + 241
    bytes[at + 1] = (value - 240) & 0xff
    return at + 2
  }
  if (value <= 67823) {
    bytes[at] = 249
    bytes.writeUInt16BE(value - 2288, at + 1)
    return at + 3
  }
  if (value <= 0xffffff) {
    bytes[at] = 250
    bytes.writeUIntBE(value, at + 1, 3)
    return at + 4
  }
  bytes[at] = 251
  bytes.writeUInt32BE(value, at + 1)
  return at + 5
}

/** A cursor that reads the parts of a key in order and throws INVALID_INDEX_KEY on any surprise. */
export class KeyReader {
  at = 0
  constructor(readonly bytes: Buffer) {}

  #need(count: number): void {
    if (this.at + count > this.bytes.length) throw this.invalid('it ends early')
  }

  byte(): number {
    this.#need(1)
    return this.bytes[this.at++]!
  }

  u32(): number {
    this.#need(4)
    const value = this.bytes.readUInt32BE(this.at)
    this.at += 4
    return value
  }

  slice(count: number): Buffer {
    this.#need(count)
    this.at += count
    return Buffer.from(this.bytes.subarray(this.at - count, this.at))
  }

  varint(): number {
    const first = this.byte()
    if (first <= 240) return first
    if (first <= 248) return 240 + 256 * (first - 241) + this.byte()
    if (first === 249) return 2288 + 256 * this.byte() + this.byte()
    if (first === 250) return this.#unsigned(3)
    if (first === 251) return this.#unsigned(4)
    throw this.invalid(`a varint starts with ${first}`)
  }

  text(): string {
    this.#need(2)
    const length = this.bytes.readUInt16BE(this.at)
    this.at += 2
    this.#need(length)
    this.at += length
    return this.bytes.toString('utf8', this.at - length, this.at)
  }

  /** Throws unless every byte was read. */
  done(): void {
    if (this.at !== this.bytes.length) throw this.invalid(`${this.bytes.length - this.at} bytes are left over`)
  }

  invalid(why: string): InvalidIndexKeyError {
    return new InvalidIndexKeyError(`Expected an index key or value of @weft/index, received ${this.bytes.toString('hex')}: ${why}`)
  }

  #unsigned(count: number): number {
    this.#need(count)
    const value = this.bytes.readUIntBE(this.at, count)
    this.at += count
    return value
  }
}

/** The UTF-8 bytes of a text with its u16 length in front; undefined when longer than MAX_TEXT_BYTES. */
export function textField(text: string): Buffer | undefined {
  const length = Buffer.byteLength(text, 'utf8')
  if (length > MAX_TEXT_BYTES) return undefined
  const field = Buffer.allocUnsafe(2 + length)
  field.writeUInt16BE(length, 0)
  field.write(text, 2, 'utf8')
  return field
}

/** A height counted down from 2^32 - 1, so that ascending keys run newest first. */
export const descending = (height: number): number => 0xffffffff - height

/** The smallest key greater than every key that starts with `prefix`, an index key's first bytes (never all 0xff: it starts with INDEX_PREFIX). */
export function successor(prefix: Uint8Array): Buffer {
  let end = prefix.length
  while (end > 1 && prefix[end - 1] === 0xff) end--
  const next = Buffer.from(prefix.subarray(0, end))
  next[end - 1] = next[end - 1]! + 1
  return next
}
