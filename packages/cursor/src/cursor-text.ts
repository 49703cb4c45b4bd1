import { decodeHash, encodeHash } from '@weft/hash-text'
import { InvalidCursorError } from './errors.js'

/** A position in an ordered list of blocks: at the block (`inclusive`) or just after it. */
export interface Cursor {
  inclusive: boolean
  hash: Buffer
}

const inclusivePrefix = 'inclusive:'
const exclusivePrefix = 'exclusive:'

/** Parses `inclusive:<hash>` or `exclusive:<hash>` (prefix case-sensitive, one trailing `=` tolerated). */
export function parseCursor(text: string): Cursor {
  let inclusive: boolean
  if (text.startsWith(inclusivePrefix)) inclusive = true
  else if (text.startsWith(exclusivePrefix)) inclusive = false
  else throw new InvalidCursorError(`Expected a cursor starting with "inclusive:" or "exclusive:", received ${quote(text)}`)
  const hashText = text.slice(inclusivePrefix.length)
  try {
    return { inclusive, hash: decodeHash(hashText) }
  } catch (cause) {
    throw new InvalidCursorError(`Expected a cursor's hash to be 43 base64url characters (32 bytes), received ${quote(hashText)}`, {
      cause,
    })
  }
}

/** Formats a cursor as `inclusive:<hash>` or `exclusive:<hash>` with the hash in unpadded base64url. */
export function formatCursor(cursor: { inclusive: boolean; hash: Uint8Array }): string {
  if (cursor.hash.byteLength !== 32) {
    throw new InvalidCursorError(`Expected a cursor hash of 32 bytes, received ${cursor.hash.byteLength} bytes`)
  }
  return (cursor.inclusive ? inclusivePrefix : exclusivePrefix) + encodeHash(cursor.hash)
}

// Cursors arrive from query strings: keep error messages short whatever was sent.
function quote(text: string): string {
  return JSON.stringify(text.length > 64 ? `${text.slice(0, 64)}…` : text)
}
