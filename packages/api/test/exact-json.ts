import t from 'tap'
import { parseJsonExact, stringifyJsonExact } from '../src/index.js'

const bytes = (text: string): Uint8Array => new Uint8Array(Buffer.from(text))

t.test('featureFlags come back as decimal strings, exact above 2^53, from text and from bytes alike', async (t) => {
  t.same(parseJsonExact('{"a":{"featureFlags" : 12}}'), { a: { featureFlags: '12' } })
  const cases = [
    '{"a":{"featureFlags" : 12}}',
    '{"featureFlags":18446744073709551615,"hash":"x"}',
    '[{"featureFlags":\t\n 1},{"featureFlags":\r2},{"b":"é","featureFlags":0}]',
    '{"featureFlags":-1,"x":["featureFlags",3]}',
    '{"featureFlags":"7","y":{"featureFlags":null}}',
    '{"none":true}',
  ]
  for (const text of cases) t.same(parseJsonExact(bytes(text)), parseJsonExact(text), text)
  t.same(parseJsonExact(bytes('[{"featureFlags":18446744073709551615},{"featureFlags":9007199254740993}]')), [
    { featureFlags: '18446744073709551615' },
    { featureFlags: '9007199254740993' },
  ])
  t.same(parseJsonExact(Buffer.from('{"name":"añ","featureFlags":5}')), { name: 'añ', featureFlags: '5' }, 'UTF-8 text is decoded as UTF-8')
  const inside = Buffer.from('xx{"featureFlags":1}yy').subarray(2, 20)
  t.same(parseJsonExact(inside), { featureFlags: '1' }, 'a view into a larger buffer reads only its own bytes')
  t.throws(() => parseJsonExact(bytes('{"featureFlags":1')), SyntaxError, 'text that is not JSON still fails to parse')
})

t.test('stringifyJsonExact writes what parseJsonExact read, featureFlags as bare integers', async (t) => {
  const text = '{"items":[{"header":{"featureFlags":18446744073709551615,"nonce":"12"}},{"featureFlags":0}],"next":null}'
  t.equal(stringifyJsonExact(parseJsonExact(text)), text)
  t.equal(stringifyJsonExact(parseJsonExact(bytes(text))), text)
  t.equal(
    stringifyJsonExact({ featureFlags: 5, name: '"featureFlags":"7"' }),
    '{"featureFlags":5,"name":"\\"featureFlags\\":\\"7\\""}',
    'a string that holds the key stays a string',
  )
  t.equal(stringifyJsonExact({ featureFlags: 'x1' }), '{"featureFlags":"x1"}', 'only digits become a number')
})
