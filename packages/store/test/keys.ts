import { decodeHeader, encodeHeader, genesisBlock, getNetwork } from '@weft/block'
import fc from 'fast-check'
import t from 'tap'
import { CorruptStoreError } from '../src/errors.js'
import {
  blockKey,
  blockKeyHigh,
  blockKeyLow,
  chainOfHeadKey,
  decodeBlockRecord,
  decodeHashRecord,
  decodeRangeItem,
  encodeBlockRecord,
  encodeHashRecord,
  hashOfBlockKey,
  headKey,
  heightOfBlockKey,
  metaKey,
  parentOfBlockRecord,
} from '../src/keys.js'

const hash = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => Buffer.from(bytes))
const height = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER })
const chain = fc.integer({ min: 0, max: 0xffffffff })

t.test('block keys sort as (chain, height, raw hash) numerically', (t) => {
  fc.assert(
    fc.property(chain, height, hash, chain, height, hash, (c1, h1, x1, c2, h2, x2) => {
      const byBytes = Math.sign(Buffer.compare(blockKey(c1, h1, x1), blockKey(c2, h2, x2)))
      const byFields = Math.sign(c1 - c2) || Math.sign(h1 - h2) || Math.sign(Buffer.compare(x1, x2))
      return byBytes === byFields
    }),
  )
  t.end()
})

t.test('a block key gives back its height and hash', (t) => {
  fc.assert(
    fc.property(chain, height, hash, (c, h, x) => {
      const key = blockKey(c, h, x)
      return key.length === 45 && heightOfBlockKey(key) === h && hashOfBlockKey(key).equals(x)
    }),
  )
  t.end()
})

t.test('the low and high keys of a height enclose every key of that height and no other', (t) => {
  fc.assert(
    fc.property(chain, fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER - 1 }), hash, (c, h, x) => {
      const key = blockKey(c, h, x)
      return (
        Buffer.compare(blockKeyLow(c, h), key) <= 0 &&
        Buffer.compare(key, blockKeyHigh(c, h)) <= 0 &&
        Buffer.compare(blockKeyHigh(c, h - 1), key) < 0 &&
        Buffer.compare(key, blockKeyLow(c, h + 1)) < 0
      )
    }),
  )
  t.end()
})

t.test('hash index records round-trip chain, height and parent in 44 bytes', (t) => {
  fc.assert(
    fc.property(chain, height, hash, (c, h, parent) => {
      const value = encodeHashRecord(c, h, parent)
      const record = decodeHashRecord(value)
      return value.length === 44 && record.chainId === c && record.height === h && record.parent.equals(parent)
    }),
  )
  t.end()
})

t.test('a hash index record of the wrong length is reported as corruption', (t) => {
  t.throws(() => decodeHashRecord(Buffer.alloc(43)), CorruptStoreError)
  t.end()
})

t.test('block records round-trip their parts, the payload given as bytes or as text', (t) => {
  fc.assert(
    fc.property(
      hash,
      fc.nat({ max: 2 ** 32 - 1 }),
      fc.uint8Array({ maxLength: 400 }),
      fc.string(),
      fc.string(),
      fc.boolean(),
      (payloadHash, txCount, binary, json, payload, asText) => {
        const record = {
          payloadHash,
          txCount,
          headerBinary: Buffer.from(binary),
          headerJson: Buffer.from(json),
          payloadJson: asText ? payload : Buffer.from(payload),
        }
        const decoded = decodeBlockRecord(encodeBlockRecord(record))
        return (
          decoded.payloadHash.equals(payloadHash) &&
          decoded.txCount === txCount &&
          decoded.headerBinary.equals(record.headerBinary) &&
          decoded.headerJson.equals(record.headerJson) &&
          decoded.payloadJson.toString() === payload
        )
      },
    ),
  )
  t.end()
})

t.test('truncated block records are reported as corruption', (t) => {
  t.throws(() => decodeBlockRecord(Buffer.alloc(43)), { code: 'CORRUPT_STORE' })
  const record = encodeBlockRecord({
    payloadHash: Buffer.alloc(32),
    txCount: 0,
    headerBinary: Buffer.alloc(210),
    headerJson: Buffer.from('{}'),
    payloadJson: '{}',
  })
  t.throws(() => decodeBlockRecord(record.subarray(0, 100)), { code: 'CORRUPT_STORE' })
  t.end()
})

t.test('head keys carry their chain and meta keys their name', (t) => {
  t.equal(chainOfHeadKey(headKey(19)), 19)
  t.same(metaKey('network').toString(), 'mnetwork')
  t.end()
})

t.test('a range item is read from a block key and record without copies', (t) => {
  fc.assert(
    fc.property(chain, height, hash, hash, fc.uint8Array({ maxLength: 400 }), fc.string(), (c, h, x, payloadHash, binary, json) => {
      const value = encodeBlockRecord({
        payloadHash,
        txCount: 1,
        headerBinary: Buffer.from(binary),
        headerJson: Buffer.from(json),
        payloadJson: '{"p":1}',
      })
      const item = decodeRangeItem(blockKey(c, h, x), value)
      return (
        item.hash.equals(x) &&
        item.height === h &&
        item.payloadHash.equals(payloadHash) &&
        item.headerBinary.equals(Buffer.from(binary)) &&
        item.headerJson.toString() === json &&
        item.payloadJson.toString() === '{"p":1}' &&
        item.headerJson.buffer === value.buffer
      )
    }),
  )
  t.end()
})

t.test('a truncated record in a range is reported as corruption', (t) => {
  const key = blockKey(0, 1, Buffer.alloc(32))
  t.throws(() => decodeRangeItem(key, Buffer.alloc(10)), { code: 'CORRUPT_STORE' })
  const record = encodeBlockRecord({
    payloadHash: Buffer.alloc(32),
    txCount: 0,
    headerBinary: Buffer.alloc(210),
    headerJson: Buffer.from('{}'),
    payloadJson: '{}',
  })
  t.throws(() => decodeRangeItem(key, record.subarray(0, 60)), { code: 'CORRUPT_STORE' })
  t.end()
})

t.test('the parent hash is read from a block record at its place in the binary header', (t) => {
  const header = genesisBlock(getNetwork('mainnet01'), 12).header
  const headerBinary = encodeHeader(header)
  const record = encodeBlockRecord({
    payloadHash: header.payloadHash,
    txCount: 0,
    headerBinary,
    headerJson: Buffer.from('{}'),
    payloadJson: '{}',
  })
  t.same(parentOfBlockRecord(record), header.parent)
  t.same(parentOfBlockRecord(record), decodeHeader(decodeBlockRecord(record).headerBinary).parent)
  t.throws(() => parentOfBlockRecord(record.subarray(0, 44 + 47)), CorruptStoreError)
  t.end()
})
