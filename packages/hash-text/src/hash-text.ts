import { InvalidHashError } from './errors.js'

/** Bytes of a block hash. */
export const HASH_BYTES = 32

// 43 characters carry 258 bits: the last one may only hold 4 bits of data (its low 2 bits are 0).
const hashText = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]=?$/

/** Encodes 32 hash bytes as unpadded base64url (43 characters). */
export function encodeHash(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url')
}

/** Decodes a block hash from unpadded base64url (one trailing `=` tolerated) to 32 bytes. */
export function decodeHash(text: string): Buffer {
  if (!hashText.test(text)) throw new InvalidHashError(text)
  return Buffer.from(text, 'base64url')
}

/** Whether `text` is a well-formed block hash. */
export function isHashText(text: string): boolean {
  return hashText.test(text)
}

/** A string key for a hash in a JavaScript `Map` or `Set`: equal bytes give equal keys (one character a byte). */
export function mapKeyOfHash(hash: Uint8Array): string {
  return Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength).toString('latin1')
}

/**
 * The former name of `mapKeyOfHash`, the same function.
 * @deprecated Use `mapKeyOfHash`: the old name read like chainweb-node's hash-map order of chain ids.
 * @alias
 */
export const hashMapKey: (hash: Uint8Array) => string = mapKeyOfHash
