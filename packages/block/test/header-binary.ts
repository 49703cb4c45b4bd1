import { isDeepStrictEqual } from 'node:util'
import fc from 'fast-check'
import t from 'tap'
import { decodeHeader, encodeHeader, type Header, headerByteLength, headerFromJson } from '../src/index.js'
import { headerArb, headerVectors, holds } from './fixtures/helpers.js'

const sample = (): Header => headerFromJson(structuredClone((headerVectors[0] as (typeof headerVectors)[number]).object))

t.test('random headers round-trip through the binary encoding, featureFlags above 2^53 included', async (t) => {
  let bigFlags = 0
  const roundTrips = fc.property(headerArb, (h) => {
    if (h.featureFlags > 1n << 53n) bigFlags++
    const bytes = encodeHeader(h)
    return bytes.length === headerByteLength(h.adjacents.length) && isDeepStrictEqual(decodeHeader(bytes), h)
  })
  holds(t, roundTrips, { numRuns: 300 })
  t.ok(bigFlags > 0, 'some runs had featureFlags above 2^53')
})

t.test('a header is 210 bytes without adjacents and 318 with three', async (t) => {
  t.equal(headerByteLength(0), 210)
  t.equal(encodeHeader(sample()).length, 318)
  t.equal(encodeHeader({ ...sample(), adjacents: [] }).length, 210)
})

t.test('featureFlags sit first, little-endian, and decode exactly', async (t) => {
  const h = { ...sample(), featureFlags: (1n << 63n) + 3n }
  const bytes = encodeHeader(h)
  t.equal(bytes.readBigUInt64LE(0), (1n << 63n) + 3n)
  t.equal(decodeHeader(bytes).featureFlags, (1n << 63n) + 3n)
})

t.test('a decoded header owns its hash bytes', async (t) => {
  const bytes = encodeHeader(sample())
  const h = decodeHeader(bytes)
  bytes.fill(0)
  t.same(h.hash, sample().hash)
  t.same(h.parent, sample().parent)
})

t.test('binary of the wrong length or with an unknown version code is refused', async (t) => {
  const bytes = encodeHeader(sample())
  t.throws(() => decodeHeader(bytes.subarray(0, 209)), { code: 'INVALID_ENCODING', message: /at least 210/ })
  t.throws(() => decodeHeader(bytes.subarray(0, 317)), { code: 'INVALID_ENCODING', message: /318 bytes for 3 adjacents/ })
  const unknown = Buffer.from(bytes)
  unknown.writeUInt32LE(99, 50 + 3 * 36 + 108)
  t.throws(() => decodeHeader(unknown), { code: 'INVALID_ENCODING', message: /version code 99/ })
})

t.test('times and heights beyond safe integers are refused on decode', async (t) => {
  const bytes = encodeHeader(sample())
  const far = Buffer.from(bytes)
  far.writeBigInt64LE(1n << 62n, 8)
  t.throws(() => decodeHeader(far), { code: 'INVALID_ENCODING', message: /creationTime/ })
  far.writeBigInt64LE(-(1n << 62n), 8)
  t.throws(() => decodeHeader(far), { code: 'INVALID_ENCODING', message: /creationTime/ })
})

t.test('values that do not fit their binary field are refused on encode', async (t) => {
  const h = sample()
  const bad: Array<[string, Partial<Header>]> = [
    ['featureFlags', { featureFlags: 1n << 64n }],
    ['nonce', { nonce: -1n }],
    ['creationTime', { creationTime: 1.5 }],
    ['epochStart', { epochStart: Number.MAX_SAFE_INTEGER + 2 }],
    ['chainId', { chainId: 2 ** 32 }],
    ['height', { height: -1 }],
    ['parent', { parent: Buffer.alloc(31) }],
    ['payloadHash', { payloadHash: Buffer.alloc(33) }],
    ['hash', { hash: Buffer.alloc(0) }],
    ['adjacent chain id', { adjacents: [[-1, Buffer.alloc(32)]] }],
    ['adjacent hash', { adjacents: [[1, Buffer.alloc(3)]] }],
    ['adjacents count', { adjacents: Array.from({ length: 0x10000 }, (_, i) => [i, Buffer.alloc(32)] as const) }],
    ['u256', { target: 1n << 256n }],
  ]
  for (const [name, change] of bad)
    t.throws(() => encodeHeader({ ...h, ...change }), { code: 'INVALID_ENCODING', message: new RegExp(name) }, name)
  t.throws(() => encodeHeader({ ...h, version: 'mainnet02' as Header['version'] }), { code: 'UNKNOWN_NETWORK' })
})
