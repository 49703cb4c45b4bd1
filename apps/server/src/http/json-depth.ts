/** Deepest nesting of arrays and objects a request body may have (the contract's bodies nest two deep). */
export const MAX_BODY_DEPTH = 64

/**
 * Whether JSON text nests arrays and objects deeper than `max`, found by scanning its bytes once
 * (strings skipped, escapes included), before anything parses or walks it: no recursion, no
 * allocation. Malformed text is not this function's business; the parser refuses it afterwards.
 */
export function nestsDeeperThan(bytes: Uint8Array, max: number): boolean {
  let depth = 0
  let inString = false
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index]
    if (inString) {
      // A backslash escapes the next byte (`\"` does not end the string); bytes of multi-byte
      // UTF-8 characters are all 0x80 or above, so they never look like a quote or a bracket.
      if (byte === 0x5c) index++
      else if (byte === 0x22) inString = false
    } else if (byte === 0x22) inString = true
    else if (byte === 0x5b || byte === 0x7b) {
      depth++
      if (depth > max) return true
    } else if (byte === 0x5d || byte === 0x7d) depth--
  }
  return false
}
