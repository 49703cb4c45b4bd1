import fc from 'fast-check'
import t from 'tap'
import { canonicalDecimal, canonicalInteger, MAX_DECIMAL_LENGTH } from '../src/decimal.js'
import { sameValue } from './fixtures/decimal-value.js'

const decimalText = fc
  .tuple(
    fc.boolean(),
    fc.stringMatching(/^[0-9]{1,25}$/),
    fc.option(fc.stringMatching(/^[0-9]{1,25}$/), { nil: undefined }),
    fc.option(fc.integer({ min: -60, max: 60 }), { nil: undefined }),
    fc.constantFrom('e', 'E'),
  )
  .map(([negative, whole, fraction, exponent, e]) => {
    const sign = exponent !== undefined && exponent >= 0 && exponent % 2 === 0 ? '+' : ''
    return `${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}${exponent === undefined ? '' : `${e}${sign}${exponent}`}`
  })

t.test('the canonical text has the same exact value and one form per value', async () => {
  fc.assert(
    fc.property(decimalText, (text) => {
      const canonical = canonicalDecimal(text)!
      return (
        sameValue(canonical, text) &&
        /^-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/.test(canonical) &&
        canonical !== '-0' &&
        canonicalDecimal(canonical) === canonical
      )
    }),
    { numRuns: 2000 },
  )
})

t.test("Aeson's and Pact's forms of real amounts", async (t) => {
  const cases: Array<[string, string]> = [
    ['7.41e-3', '0.00741'],
    ['1.0e-3', '0.001'],
    ['6.21e-5', '0.0000621'],
    ['2.82633', '2.82633'],
    ['29', '29'],
    ['1.23456785e7', '12345678.5'],
    ['0.671390000000000000000000000000', '0.67139'],
    ['8234.567890123457', '8234.567890123457'],
    ['-0', '0'],
    ['-0.000', '0'],
    ['007.50', '7.5'],
    ['1e0', '1'],
    ['0e999999999999', '0'],
  ]
  for (const [text, canonical] of cases) t.equal(canonicalDecimal(text), canonical, text)
})

t.test('anything else, and absurd exponents, have no canonical text', async (t) => {
  for (const text of ['', '-', '.5', '1.', '1.e3', 'e5', '1e', '1e+', '0x10', '1 ', ' 1', '1,5', 'Infinity', 'NaN', '1e99999999999'])
    t.equal(canonicalDecimal(text), undefined, JSON.stringify(text))
  t.equal(canonicalDecimal(`1e${MAX_DECIMAL_LENGTH - 1}`)?.length, MAX_DECIMAL_LENGTH)
  t.equal(canonicalDecimal(`-1e-${MAX_DECIMAL_LENGTH - 3}`)?.length, MAX_DECIMAL_LENGTH)
  t.equal(canonicalDecimal(`1e${MAX_DECIMAL_LENGTH}`), undefined)
  t.equal(canonicalDecimal(`1e-${MAX_DECIMAL_LENGTH}`), undefined)
})

t.test('integers are canonical decimals without a fraction', async (t) => {
  t.equal(canonicalInteger('42'), '42')
  t.equal(canonicalInteger('-9007199254740993'), '-9007199254740993')
  t.equal(canonicalInteger('1.0e3'), '1000')
  t.equal(canonicalInteger('1.5'), undefined)
  t.equal(canonicalInteger('x'), undefined)
})
