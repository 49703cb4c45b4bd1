// Pact decimals as exact text. Outputs write them as JSON numbers of any precision and in exponent
// notation (Aeson writes 0.00741 as 7.41e-3), or as {"decimal": "<text>"}; integers as {"int": n}.
// The canonical text has no exponent, no leading zeros, no trailing fractional zeros and no "-0",
// so that equal amounts have equal texts; no digit is ever rounded.

/** The longest canonical decimal text kept; longer amounts (absurd exponents) are refused. */
export const MAX_DECIMAL_LENGTH = 512

const DIGIT_0 = 0x30
const isDigit = (c: number): boolean => c >= DIGIT_0 && c <= 0x39

/**
 * The canonical text of a decimal written as a JSON number or as Pact's decimal text
 * (`-?digits(.digits)?(e[+-]?digits)?`, leading zeros allowed); undefined for anything else or a
 * result longer than MAX_DECIMAL_LENGTH.
 */
export function canonicalDecimal(text: string): string | undefined {
  const n = text.length
  let i = text.charCodeAt(0) === 0x2d ? 1 : 0
  const sign = i
  while (i < n && isDigit(text.charCodeAt(i))) i++
  const wholeEnd = i
  if (wholeEnd === sign) return undefined
  let fractionEnd = i
  if (i < n && text.charCodeAt(i) === 0x2e) {
    i++
    while (i < n && isDigit(text.charCodeAt(i))) i++
    if (i === wholeEnd + 1) return undefined
    fractionEnd = i
  }
  let exponent = 0
  if (i < n && (text.charCodeAt(i) | 0x20) === 0x65) {
    i++
    const negative = text.charCodeAt(i) === 0x2d
    if (negative || text.charCodeAt(i) === 0x2b) i++
    const start = i
    while (i < n && isDigit(text.charCodeAt(i))) i++
    if (i === start) return undefined
    // Past 9 digits the exponent only matters as "too large": the length check below refuses it.
    exponent = i - start > 9 ? 1e10 : Number(text.slice(start, i))
    if (negative) exponent = -exponent
  }
  if (i !== n) return undefined
  // Already canonical: no exponent, no leading zero, no trailing fractional zero, not "-0".
  const plain =
    fractionEnd === n &&
    (text.charCodeAt(sign) !== DIGIT_0 || wholeEnd === sign + 1) &&
    (fractionEnd === wholeEnd ? text !== '-0' : text.charCodeAt(fractionEnd - 1) !== DIGIT_0)
  if (plain) return text
  // The value is 0.digits × 10^point, digits without leading or trailing zeros.
  let digits = fractionEnd > wholeEnd ? text.slice(sign, wholeEnd) + text.slice(wholeEnd + 1, fractionEnd) : text.slice(sign, wholeEnd)
  let point = wholeEnd - sign + exponent
  let lead = 0
  while (lead < digits.length && digits.charCodeAt(lead) === DIGIT_0) lead++
  if (lead === digits.length) return '0'
  let end = digits.length
  while (digits.charCodeAt(end - 1) === DIGIT_0) end--
  digits = digits.slice(lead, end)
  point -= lead
  const length = sign + (point <= 0 ? 2 - point + digits.length : point >= digits.length ? point : digits.length + 1)
  if (length > MAX_DECIMAL_LENGTH) return undefined
  const body =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? digits + '0'.repeat(point - digits.length)
        : `${digits.slice(0, point)}.${digits.slice(point)}`
  return sign === 1 ? `-${body}` : body
}

/** The canonical text of an integer written as a JSON number or digits; undefined unless the value is integral. */
export function canonicalInteger(text: string): string | undefined {
  const value = canonicalDecimal(text)
  return value === undefined || value.includes('.') ? undefined : value
}
