import t from 'tap'
import { decimalText, pactDecimal, pactInteger, RawJson, stringifyPactJson } from '../src/pact-json.js'

t.test("decimals whose mantissa fits in 2^53 are bare numbers in Aeson's format", async (t) => {
  const cases: Array<[bigint, number, string]> = [
    [741n, 5, '7.41e-3'], // below 0.1: exponent notation, as real outputs write gas
    [1n, 3, '1.0e-3'], // one significant digit: d.0eN
    [270478963n, 7, '27.0478963'],
    [9856n, 4, '0.9856'],
    [290n, 1, '29'], // integral values are integers
    [2900n, 2, '29'],
    [1000n, 0, '1000'],
    [0n, 12, '0'],
    [12345675n, 1, '1234567.5'], // fixed up to 10^7
    [123456785n, 1, '1.23456785e7'], // exponent from 10^7
    [-5n, 2, '-5.0e-2'],
    [1234567890123456n, 12, '1234.567890123456'], // 16 significant digits, past a double's precision
    [2n ** 53n - 1n, 0, '9007199254740991'],
  ]
  for (const [mantissa, places, text] of cases) t.equal(pactDecimal({ mantissa, places }).text, text, `${mantissa}e-${places}`)
})

t.test('decimals past 2^53 are {"decimal": text} with every place, as Data.Decimal shows them', async (t) => {
  t.equal(pactDecimal({ mantissa: 671390000000000000000000000000n, places: 30 }).text, '{"decimal":"0.671390000000000000000000000000"}')
  t.equal(pactDecimal({ mantissa: -(2n ** 53n), places: 2 }).text, '{"decimal":"-90071992547409.92"}')
  t.equal(decimalText({ mantissa: 7n, places: 0 }), '7')
  t.equal(decimalText({ mantissa: -5n, places: 3 }), '-0.005')
})

t.test('integers are {"int": n}, their digits as a string past 2^53', async (t) => {
  t.equal(pactInteger(42n).text, '{"int":42}')
  t.equal(pactInteger(-(2n ** 53n)).text, '{"int":"-9007199254740992"}')
})

t.test('stringifyPactJson writes raw texts where they stand and leaves the rest to JSON.stringify', async (t) => {
  t.equal(stringifyPactJson({ a: [1, new RawJson('1.0e-3')], b: 'x' }), '{"a":[1,1.0e-3],"b":"x"}')
  t.equal(stringifyPactJson({ plain: true }), '{"plain":true}')
})
