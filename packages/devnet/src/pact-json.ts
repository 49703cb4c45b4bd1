// Numbers as Pact writes them in outputs: a decimal whose mantissa fits in 2^53 is a bare JSON
// number in Aeson's format (exponent notation below 0.1 and from 10^7), a larger one
// `{"decimal": "<text>"}`; an integer is `{"int": n}` (a string beyond 2^53). The texts carry every
// digit, which JSON.stringify of a double cannot, so they are spliced in as raw JSON.

/** A Pact decimal as Data.Decimal holds it: mantissa × 10^-places. */
export interface PactDecimal {
  readonly mantissa: bigint
  readonly places: number
}

// The raw texts of the stringifyPactJson call running: toJSON hands out their places in order
// (JSON.stringify is synchronous), which is much cheaper than a replacer called for every value.
let raws: string[] = []

/** A value that `stringifyPactJson` writes as its exact JSON text. */
export class RawJson {
  constructor(readonly text: string) {}

  /** A placeholder that `stringifyPactJson` replaces by the text. */
  toJSON(): string {
    raws.push(this.text)
    return `@@raw${raws.length - 1}@@`
  }
}

const maxSafe = 2n ** 53n - 1n

/** Data.Decimal's text: the digits with exactly `places` decimal places ("-12.3400", "7"). */
export function decimalText({ mantissa, places }: PactDecimal): string {
  const sign = mantissa < 0n ? '-' : ''
  const digits = (mantissa < 0n ? -mantissa : mantissa).toString().padStart(places + 1, '0')
  return places === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -places)}.${digits.slice(-places)}`
}

// Aeson's text of a Scientific: an integer as its digits; otherwise Haskell's Generic format over
// the significant digits ds and exponent e (value 0.ds × 10^e): fixed when 0 <= e <= 7, else d.ddde(e-1).
function aesonText({ mantissa, places }: PactDecimal): string {
  const sign = mantissa < 0n ? '-' : ''
  let digits = (mantissa < 0n ? -mantissa : mantissa).toString()
  let scale = places
  while (scale > 0 && digits.length > 1 && digits.endsWith('0')) {
    digits = digits.slice(0, -1)
    scale--
  }
  if (scale === 0 || digits === '0') return `${sign}${digits}`
  const e = digits.length - scale
  if (e < 0 || e > 7) return `${sign}${digits[0]}.${digits.length === 1 ? '0' : digits.slice(1)}e${e - 1}`
  return e === 0 ? `${sign}0.${digits}` : `${sign}${digits.slice(0, e)}.${digits.slice(e)}`
}

/** A decimal as Pact writes it in an output: a bare number while the mantissa is safe, else `{"decimal": text}`. */
export function pactDecimal(value: PactDecimal): RawJson {
  const magnitude = value.mantissa < 0n ? -value.mantissa : value.mantissa
  return new RawJson(magnitude <= maxSafe ? aesonText(value) : JSON.stringify({ decimal: decimalText(value) }))
}

/** An integer as Pact writes it in an output: `{"int": n}`, the digits as a string beyond 2^53. */
export function pactInteger(value: bigint): RawJson {
  const magnitude = value < 0n ? -value : value
  return new RawJson(`{"int":${magnitude <= maxSafe ? value.toString() : JSON.stringify(value.toString())}}`)
}

/** JSON.stringify that writes every RawJson as its text. */
export function stringifyPactJson(value: unknown): string {
  raws = []
  const text = JSON.stringify(value)
  const written = raws
  raws = []
  return written.length === 0 ? text : text.replace(/"@@raw(\d+)@@"/g, (_match, at: string) => written[Number(at)]!)
}
