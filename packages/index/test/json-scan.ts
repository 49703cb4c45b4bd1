import fc from 'fast-check'
import t from 'tap'
import { CLOSE_OBJECT, JsonScanner, MALFORMED, OPEN_OBJECT } from '../src/json-scan.js'

// Whether the scanner takes the bytes as one JSON value, and whether JSON.parse does.
const scans = (bytes: Buffer): boolean => {
  try {
    const s = new JsonScanner(bytes)
    s.skip()
    s.end()
    return true
  } catch (error) {
    if (error !== MALFORMED) throw error
    return false
  }
}
const parses = (bytes: Buffer): boolean => {
  try {
    JSON.parse(bytes.toString('utf8'))
    return true
  } catch {
    return false
  }
}

t.test('the scanner accepts every JSON text, in any spacing', async () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.constantFrom(undefined, 1, 2), (value, space) => {
      const bytes = Buffer.from(JSON.stringify(value, null, space))
      return scans(bytes) && scans(Buffer.from(` \n\t${bytes.toString()}\r\n`))
    }),
    { numRuns: 300 },
  )
})

t.test('the scanner refuses what JSON.parse refuses: damaged texts and garbage', async (t) => {
  const damaged = fc
    .tuple(
      fc.jsonValue(),
      fc.nat(),
      fc.constantFrom('', '"', '\\', ',', ':', '{', '}', '[', ']', '-', '.', 'e', '0', 'x', '\u0001', 'tru', ' '),
    )
    .map(([value, at, insert]) => {
      const text = JSON.stringify(value)
      const place = at % (text.length + 1)
      return Buffer.from(text.slice(0, place) + insert + text.slice(place + (insert === '' ? 1 : 0)))
    })
  const garbage = fc.string({ unit: 'binary', maxLength: 40 }).map((text) => Buffer.from(text))
  fc.assert(
    fc.property(fc.oneof(damaged, garbage), (bytes) => scans(bytes) === parses(bytes)),
    { numRuns: 2000 },
  )
  for (const text of [
    '',
    ' ',
    '01',
    '1.',
    '.5',
    '-',
    '1e',
    '1e+',
    '+1',
    'nul',
    'True',
    '"\\x"',
    '"\\u12"',
    '"a',
    '[1,]',
    '{"a"}',
    '{"a":1,}',
    '{1:2}',
    '[1 2]',
    '"\t"',
    'true false',
  ])
    t.equal(scans(Buffer.from(text)), false, JSON.stringify(text))
})

t.test('strings decode as JSON.parse decodes them, escapes and UTF-8 included', async (t) => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), (text) => {
      const s = new JsonScanner(Buffer.from(JSON.stringify(text)))
      return s.string() === JSON.parse(JSON.stringify(text))
    }),
    { numRuns: 500 },
  )
  t.equal(new JsonScanner(Buffer.from('"\\u00e9t\\u00e9 \\"quoted\\" \\/"')).string(), 'été "quoted" /')
})

t.test('numbers come back as their exact text, every digit kept', async (t) => {
  for (const text of ['0', '-0', '12.500', '7.41e-3', '1E+400', '123456789012345678901234567890.000000000000000001']) {
    const s = new JsonScanner(Buffer.from(` ${text} `))
    t.equal(s.number(), text)
    s.end()
  }
  t.throws(() => new JsonScanner(Buffer.from('"1"')).number(), MALFORMED)
})

t.test('keys are matched as bytes, escaped ones by their value', async (t) => {
  const names = [Buffer.from('reqKey'), Buffer.from('events'), Buffer.from('été')]
  const s = new JsonScanner(Buffer.from('{"events": 1, "req\\u004bey": 2, "other": 3, "reqKeys": 4, "\\u00e9t\\u00e9": 5, "été": 6}'))
  s.expect(OPEN_OBJECT)
  const found: number[] = []
  do {
    found.push(s.keyOf(names))
    s.skip()
  } while (s.more(CLOSE_OBJECT))
  s.end()
  t.same(found, [1, 0, -1, -1, 2, 2])
  t.throws(() => new JsonScanner(Buffer.from('{1: 2}')).keyOf(names), MALFORMED, 'a key must be a string')
  t.throws(() => new JsonScanner(Buffer.from('{"a" 2}')).key(), MALFORMED, 'a key must be followed by a colon')
})

t.test('nesting deeper than 128 levels is refused instead of risking the stack', async (t) => {
  t.equal(scans(Buffer.from(`${'['.repeat(128)}${']'.repeat(128)}`)), true)
  t.equal(scans(Buffer.from(`${'['.repeat(129)}${']'.repeat(129)}`)), false)
  t.equal(scans(Buffer.from(`${'['.repeat(100_000)}`)), false)
})
