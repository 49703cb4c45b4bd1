import { deriveEntries, encodeEntries, type IndexOperation } from '@weft/index'
import type { PayloadWithOutputs } from '@weft/types'
import { CorruptStoreError } from './errors.js'

// The index entries of a block travel between threads as one buffer, not as an array of key and
// value objects: a structured clone of one buffer is a copy, of 8 small objects 16 allocations.
// Layout: per operation, key length u16, value length u32, key, value.

/** The `@weft/index` entries of a block, packed into one buffer (see `forEachIndexOperation`). */
export function packIndexOperations(operations: readonly IndexOperation[]): Buffer {
  let length = 0
  for (const { key, value } of operations) length += 6 + key.length + value.length
  const packed = Buffer.allocUnsafe(length)
  let at = 0
  for (const { key, value } of operations) {
    packed.writeUInt16BE(key.length, at)
    packed.writeUInt32BE(value.length, at + 2)
    packed.set(key, at + 6)
    packed.set(value, at + 6 + key.length)
    at += 6 + key.length + value.length
  }
  return packed
}

/**
 * Calls `put` with each operation `packIndexOperations` packed, key and value as views into
 * `packed`, in order: no object per operation (a bulk fill writes about ten a block). A buffer cut
 * short is a corrupt one; the operations before the cut have been put.
 */
export function forEachIndexOperation(packed: Uint8Array, put: (key: Buffer, value: Buffer) => void): void {
  const bytes = Buffer.isBuffer(packed) ? packed : Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength)
  let at = 0
  while (at < bytes.length) {
    if (at + 6 > bytes.length) throw new CorruptStoreError('packed index operations end inside a length')
    const keyLength = bytes.readUInt16BE(at)
    const valueLength = bytes.readUInt32BE(at + 2)
    const end = at + 6 + keyLength + valueLength
    if (end > bytes.length) throw new CorruptStoreError('packed index operations end inside an operation')
    put(bytes.subarray(at + 6, at + 6 + keyLength), bytes.subarray(at + 6 + keyLength, end))
    at = end
  }
}

/** The operations `packIndexOperations` packed, as views into `packed`; a buffer cut short is a corrupt one. */
export function unpackIndexOperations(packed: Uint8Array): IndexOperation[] {
  const operations: IndexOperation[] = []
  forEachIndexOperation(packed, (key, value) => operations.push({ key, value }))
  return operations
}

/** A block's index entries, packed: what deriving costs is paid where this runs (a validation thread for bulk batches). */
export function blockIndexOperations(chain: number, height: number, hash: Uint8Array, payload: PayloadWithOutputs): Buffer {
  // Index keys hold heights below 2^32 (2,000 years of blocks); a block above gets no entries rather than a refusal.
  if (height > 0xffffffff) return Buffer.alloc(0)
  return packIndexOperations(encodeEntries(deriveEntries({ chain, height, hash, payload })))
}

/** A stored block's index entries from the payload JSON of its record (the catch-up of a store written without them). */
export function recordIndexOperations(chain: number, height: number, hash: Uint8Array, payloadJson: Uint8Array): Buffer {
  const text = Buffer.from(payloadJson.buffer, payloadJson.byteOffset, payloadJson.byteLength).toString('utf8')
  return blockIndexOperations(chain, height, hash, JSON.parse(text) as PayloadWithOutputs)
}
