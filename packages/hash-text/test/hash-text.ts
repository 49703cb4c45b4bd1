import { WeftError } from '@weft/errors'
import t from 'tap'
import { decodeHash, encodeHash, HASH_BYTES, hashMapKey, InvalidHashError, isHashText, mapKeyOfHash } from '../src/index.js'

t.test('a hash round-trips between 32 bytes and 43 base64url characters', async (t) => {
  const bytes = Buffer.alloc(HASH_BYTES, 0xfb)
  const text = encodeHash(bytes)
  t.equal(text.length, 43)
  t.same(decodeHash(text), bytes)
  t.same(decodeHash(`${text}=`), bytes, 'one padding character is tolerated')
  t.ok(isHashText(text))
})

t.test('a hash inside a larger buffer encodes only its own bytes', async (t) => {
  const backing = Buffer.alloc(96, 1)
  backing.fill(7, 32, 64)
  const view = new Uint8Array(backing.buffer, backing.byteOffset + 32, 32)
  t.equal(encodeHash(view), Buffer.alloc(32, 7).toString('base64url'))
  t.equal(mapKeyOfHash(view), Buffer.alloc(32, 7).toString('latin1'))
})

t.test('a malformed hash is refused with a typed error', async (t) => {
  for (const bad of ['', 'abc', 'A'.repeat(44), `${'A'.repeat(42)}B`, `${'A'.repeat(42)}+`, `${'A'.repeat(43)}==`]) {
    t.throws(() => decodeHash(bad), InvalidHashError, JSON.stringify(bad))
    t.notOk(isHashText(bad))
  }
  const long = 'x'.repeat(100)
  t.throws(() => decodeHash(long), { code: 'INVALID_HASH_TEXT', message: /received "x{64}…"/ })
  t.ok(new InvalidHashError('a') instanceof WeftError)
})

t.test('equal hashes give equal map keys, different ones different keys', async (t) => {
  const a = Buffer.alloc(32, 1)
  const b = Buffer.alloc(32, 1)
  b[31] = 2
  t.equal(mapKeyOfHash(a), mapKeyOfHash(Buffer.from(a)))
  t.not(mapKeyOfHash(a), mapKeyOfHash(b))
  t.equal(mapKeyOfHash(a).length, 32)
})

t.test('hashMapKey, the former name, is still mapKeyOfHash', async (t) => {
  t.equal(hashMapKey, mapKeyOfHash)
})
