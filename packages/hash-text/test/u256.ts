import { randomBytes } from 'node:crypto'
import t from 'tap'
import { decodeU256, encodeU256, InvalidU256Error, MAX_U256 } from '../src/index.js'

t.test('a u256 is 32 bytes little-endian', async (t) => {
  t.same(encodeU256(1n), Buffer.concat([Buffer.from([1]), Buffer.alloc(31)]))
  t.same(encodeU256(MAX_U256), Buffer.alloc(32, 0xff))
  t.equal(decodeU256(Buffer.concat([Buffer.alloc(31), Buffer.from([0x80])])), 1n << 255n)
})

t.test('u256 values round-trip through their bytes, the edges and a thousand random ones', async (t) => {
  const values = [0n, 1n, (1n << 64n) - 1n, 1n << 64n, 1n << 128n, MAX_U256 - 1n, MAX_U256]
  for (let i = 0; i < 1000; i++) values.push(BigInt(`0x${randomBytes(1 + (i % 32)).toString('hex')}`))
  const failures = values.filter((n) => decodeU256(encodeU256(n)) !== n)
  t.same(failures, [])
})

t.test('a u256 decodes from a view into a larger buffer', async (t) => {
  const big = Buffer.concat([Buffer.alloc(5, 9), encodeU256(12345n), Buffer.alloc(3, 7)])
  t.equal(decodeU256(big.subarray(5, 37)), 12345n)
})

t.test('numbers outside the u256 range and wrong lengths are refused', async (t) => {
  t.throws(() => encodeU256(-1n), { code: 'INVALID_U256', message: 'Expected a u256 (0 <= n < 2^256), received -1' })
  t.throws(() => encodeU256(MAX_U256 + 1n), InvalidU256Error)
  t.throws(() => decodeU256(Buffer.alloc(31)), { code: 'INVALID_U256', message: 'Expected 32 bytes of u256, received 31' })
})
