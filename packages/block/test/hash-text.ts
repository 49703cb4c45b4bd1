import t from 'tap'
import { decodeHash, encodeHash, isHashText, InvalidHashError } from '../src/index.js'

t.test('a hash round-trips between 32 bytes and 43 base64url characters', async t => {
  const bytes = Buffer.alloc(32, 0xfb)
  const text = encodeHash(bytes)
  t.equal(text.length, 43)
  t.same(decodeHash(text), bytes)
  t.same(decodeHash(text + '='), bytes, 'one padding character is tolerated')
  t.ok(isHashText(text))
})

t.test('a malformed hash is refused with a typed error', async t => {
  for (const bad of ['', 'abc', 'A'.repeat(44), 'A'.repeat(42) + 'B', 'A'.repeat(42) + '+', 'A'.repeat(43) + '==']) {
    t.throws(() => decodeHash(bad), InvalidHashError, JSON.stringify(bad))
    t.notOk(isHashText(bad))
  }
  t.throws(() => decodeHash('x'.repeat(100)), { code: 'INVALID_HASH_TEXT' })
})
