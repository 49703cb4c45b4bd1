import fc from 'fast-check'
import t from 'tap'
import { decodeU256, encodeU256, MAX_U256 } from '../src/index.js'
import { holds, u256Arb } from './fixtures/helpers.js'

t.test('a u256 is 32 bytes little-endian', async (t) => {
  t.same(encodeU256(1n), Buffer.concat([Buffer.from([1]), Buffer.alloc(31)]))
  t.same(encodeU256(MAX_U256), Buffer.alloc(32, 0xff))
  t.equal(decodeU256(Buffer.concat([Buffer.alloc(31), Buffer.from([0x80])])), 1n << 255n)
})

t.test('every u256 round-trips through its bytes', async (t) => {
  holds(
    t,
    fc.property(u256Arb, (n) => decodeU256(encodeU256(n)) === n),
  )
})

t.test('a u256 decodes from a view into a larger buffer', async (t) => {
  const big = Buffer.concat([Buffer.alloc(5, 9), encodeU256(12345n), Buffer.alloc(3, 7)])
  t.equal(decodeU256(big.subarray(5, 37)), 12345n)
})

t.test('numbers outside the u256 range and wrong lengths are refused', async (t) => {
  t.throws(() => encodeU256(-1n), { code: 'INVALID_ENCODING' })
  t.throws(() => encodeU256(MAX_U256 + 1n), { code: 'INVALID_ENCODING' })
  t.throws(() => decodeU256(Buffer.alloc(31)), { code: 'INVALID_ENCODING' })
})
