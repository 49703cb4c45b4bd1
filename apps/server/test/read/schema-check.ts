import { BlockQuery, BranchBounds, PayloadBatch } from '@weft/types'
import t from 'tap'
import { compileChecker, failureMessage, shown } from '../../src/read/schema-check.js'

const hash = Buffer.alloc(32, 1).toString('base64url')
const branchBounds = compileChecker(BranchBounds)
const payloadBatch = compileChecker(PayloadBatch)

const firstMessage = (failures: ReturnType<typeof branchBounds.failures>): string | undefined =>
  failures[0] === undefined ? undefined : failureMessage(failures[0], 'the body')

t.test('a value that passes has no failures', async (t) => {
  t.ok(branchBounds.check({ upper: [hash], lower: null }))
  t.same(branchBounds.failures({ upper: [hash], lower: null }), [])
})

t.test('a failure says where, what was expected and what was received', async (t) => {
  t.equal(
    firstMessage(branchBounds.failures([hash])),
    `Expected the body to be a JSON object {"lower": [hash...], "upper": [hash...]}, received ["${hash}"]`,
  )
  t.equal(firstMessage(branchBounds.failures({ upper: 'x' })), 'Expected upper to be an array of block hashes, or null, received "x"')
  t.equal(
    firstMessage(branchBounds.failures({ upper: [hash, 'abc'] })),
    'Expected upper[1] to be a hash: 43 base64url characters (32 bytes), one trailing = tolerated, received "abc"',
    'the variant of a union that got furthest into the value says what failed',
  )
  t.equal(
    firstMessage(payloadBatch.failures([hash, 7])),
    'Expected the body[1] to be a hash: 43 base64url characters (32 bytes), one trailing = tolerated, received 7',
  )
  t.equal(firstMessage(payloadBatch.failures({ heights: [] })), 'Expected hashes to be an array of payload hashes, received nothing')
  t.equal(firstMessage(payloadBatch.failures({ hashes: [], heights: [1.5] })), 'Expected heights[0] to be integer, received 1.5')
})

t.test('a failure names its query parameter, JSON-pointer escapes decoded', async (t) => {
  const query = compileChecker(BlockQuery)
  t.same(
    query.failures({ limit: ['1', '2'] }).map((failure) => [failure.key, failure.expected, failure.received]),
    [['limit', 'a non-negative integer', ['1', '2']]],
  )
  t.equal(query.failures({ next: 'later' })[0]?.expected, 'inclusive:<hash> or exclusive:<hash>')
  const slashes = compileChecker(BranchBounds).failures({ upper: [hash] })
  t.same(slashes, [])
})

t.test('received values are shown as JSON, cut short, and absence as nothing', async (t) => {
  t.equal(shown('x'.repeat(200)).length, 101)
  t.match(shown('x'.repeat(200)), /…$/)
  t.equal(shown(undefined), 'nothing')
  t.equal(shown([1, 'a']), '[1,"a"]')
  t.equal(
    shown(() => 1),
    '() => 1',
    'what JSON cannot show is shown as text',
  )
  t.equal(shown(JSON.parse('1e999')), 'Infinity', 'a number too large for a double is named, not shown as null')
  t.equal(shown(JSON.parse('{"__proto__":{"a":1},"b":null}')), '{"__proto__":{"a":1},"b":null}', 'an own __proto__ key is shown as a key')
})

t.test('a received value is read no further than it is shown: nesting and length are bounded', async (t) => {
  let deep: unknown = []
  for (let level = 0; level < 100_000; level++) deep = [deep]
  t.equal(shown(deep), '[[[[[…]]]]]', 'a value nested 100,000 deep is shown four levels deep')
  t.equal(shown({ a: { b: { c: { d: { e: 1 } } } } }), '{"a":{"b":{"c":{"d":{…}}}}}')
  // Items read are counted rather than timed: a clock on a busy machine measures the machine.
  let reads = 0
  const long = new Proxy(
    Array.from({ length: 1_000_000 }, (_, index) => index),
    {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^[0-9]+$/.test(key)) reads += 1
        return Reflect.get(target, key, receiver)
      },
    },
  )
  const text = shown(long)
  t.ok(reads <= 50, `a million-item array costs what a hundred characters cost: ${reads} items read`)
  t.equal(text.length, 101)
  t.ok(text.startsWith('[0,1,2,3,'))
  t.equal(shown({ k: 'x'.repeat(1_000_000) }).length, 101)
})
