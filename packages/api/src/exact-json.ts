import { isAscii } from 'node:buffer'

// featureFlags exceed 2^53 since release 3.2 (their high 32 bits hold fork votes): a JSON number
// read as a double loses them, so they are read and written as decimal strings. No other key of a
// header, block, page or event carries a number that large, and no string of one holds this key.
const featureFlagsNumber = /"featureFlags"\s*:\s*([0-9]+)/g
const featureFlagsKey = Buffer.from('"featureFlags"')
const quoteMark = Buffer.from('"')

/** Parses JSON text (a header, a full block, a page, an event: anything holding headers) keeping featureFlags exact: they come back as decimal strings. */
export function parseJsonExact(text: string | Uint8Array): unknown {
  if (typeof text === 'string') return JSON.parse(text.replace(featureFlagsNumber, '"featureFlags":"$1"'))
  const quoted = quoteFeatureFlags(Buffer.from(text.buffer, text.byteOffset, text.byteLength))
  // ASCII text (every text a node serves) decodes as latin1: a copy, several times faster than UTF-8.
  return JSON.parse(quoted.toString(isAscii(quoted) ? 'latin1' : 'utf8'))
}

const quotedFeatureFlags = /"featureFlags":"([0-9]+)"/g

/** JSON text of `value` whose featureFlags are decimal strings (as `parseJsonExact` gives them), written back as the bare integers they are on the wire. */
export function stringifyJsonExact(value: unknown): string {
  return JSON.stringify(value).replace(quotedFeatureFlags, '"featureFlags":$1')
}

// The bytes with every featureFlags number in quotes, as the regular expression above does to a
// string; the keys are found by Buffer.indexOf, so a page of blocks costs a search and one copy
// rather than a UTF-8 decode and a regular-expression pass over the whole text.
function quoteFeatureFlags(bytes: Buffer): Buffer {
  const pieces: Buffer[] = []
  let copied = 0
  for (let at = bytes.indexOf(featureFlagsKey); at >= 0; at = bytes.indexOf(featureFlagsKey, at + featureFlagsKey.length)) {
    let start = skipJsonSpace(bytes, at + featureFlagsKey.length)
    if (bytes[start] !== 0x3a) continue
    start = skipJsonSpace(bytes, start + 1)
    let end = start
    while (end < bytes.length && bytes[end]! >= 0x30 && bytes[end]! <= 0x39) end++
    if (end === start) continue
    pieces.push(bytes.subarray(copied, start), quoteMark, bytes.subarray(start, end), quoteMark)
    copied = end
  }
  if (pieces.length === 0) return bytes
  pieces.push(bytes.subarray(copied))
  return Buffer.concat(pieces)
}

// The first position at or after `at` that is not JSON whitespace (space, tab, line feed, carriage return).
function skipJsonSpace(bytes: Buffer, at: number): number {
  let i = at
  while (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d) i++
  return i
}
