import { createHash } from 'node:crypto'
import { encodeHash } from '@weft/hash-text'
import t from 'tap'
import { payloadHashesMatch } from '../src/hashing.js'
import {
  computeBlockHash,
  computePayloadHashes,
  decodeHeader,
  difficulty,
  encodeHeader,
  genesisParentHash,
  headerFromJson,
  MAX_U256,
  powHash,
  powHashHex,
  targetHex,
  txCount,
} from '../src/index.js'
import { headerVectors, makePayload, payloadVectors, updateVectors } from './fixtures/helpers.js'

const header = () => headerFromJson(structuredClone((headerVectors[0] as (typeof headerVectors)[number]).object))

t.test('the block hash ignores the hash field and depends on every other field', async (t) => {
  const h = header()
  t.same(computeBlockHash({ ...h, hash: Buffer.alloc(32) }), h.hash)
  t.notSame(computeBlockHash({ ...h, adjacents: [...h.adjacents].reverse() }), h.hash, 'adjacent order matters')
  t.notSame(computeBlockHash({ ...h, epochStart: h.epochStart + 1 }), h.hash)
})

t.test('a time before the epoch still hashes, as its two-complement u64', async (t) => {
  const h = { ...header(), creationTime: -1, epochStart: -2 }
  t.equal(computeBlockHash(h).length, 32)
  t.notSame(computeBlockHash(h), computeBlockHash({ ...h, creationTime: 1 }))
})

t.test('the PoW hash is Blake2s-256 of the binary header without its hash, read little-endian', async (t) => {
  const h = header()
  const bytes = encodeHeader(h)
  const digest = createHash('blake2s256')
    .update(bytes.subarray(0, bytes.length - 32))
    .digest()
  t.equal(powHashHex(h), Buffer.from(digest).reverse().toString('hex'))
  t.equal(powHash(h), BigInt(`0x${powHashHex(h)}`))
  t.equal(powHashHex(decodeHeader(bytes)), (headerVectors[0] as (typeof headerVectors)[number]).powHash)
  t.equal(powHash({ ...h, hash: Buffer.alloc(32, 1) }), powHash(h), 'the hash field is not covered')
})

t.test('targets print as 64 lowercase big-endian hex digits', async (t) => {
  t.equal(targetHex(255n), `${'0'.repeat(62)}ff`)
  t.equal(targetHex(MAX_U256), 'f'.repeat(64))
  const u = updateVectors[0] as (typeof updateVectors)[number]
  t.equal(targetHex(headerFromJson(u.header).target), u.target)
})

t.test('difficulty is floor((2^256 - 1) / target), and the largest for a zero target', async (t) => {
  t.equal(difficulty(MAX_U256), 1n)
  t.equal(difficulty(1n << 254n), 3n)
  t.equal(difficulty((1n << 254n) - 1n), 4n)
  t.equal(difficulty(1n), MAX_U256)
  t.equal(difficulty(0n), MAX_U256)
})

t.test('payload hashes follow the tagged Merkle rules', async (t) => {
  for (const p of payloadVectors) t.equal(encodeHash(computePayloadHashes(p).payloadHash), p.payloadHash)
  const made = makePayload(3)
  t.ok(payloadHashesMatch(made))
  t.equal(txCount(made), 3)
  t.notOk(payloadHashesMatch({ ...made, outputsHash: made.transactionsHash }), 'a wrong hash field')
  t.notOk(payloadHashesMatch({ ...made, payloadHash: 'not a hash' }), 'a malformed hash field')
  t.ok(payloadHashesMatch({ ...made, payloadHash: `${made.payloadHash}=` }), 'one trailing = is tolerated, as decodeHash does')
  t.notOk(payloadHashesMatch({ ...made, payloadHash: `${made.payloadHash}==` }), 'two are not')
  t.notOk(payloadHashesMatch({ ...made, payloadHash: `${made.payloadHash.slice(0, 42)}B` }), 'a non-canonical last character is not')
  t.notOk(payloadHashesMatch({ ...made, payloadHash: 5 as unknown as string }), 'a number is not')
  t.notOk(payloadHashesMatch({ ...made, transactions: made.transactions.slice(1) }), 'a missing transaction')
})

t.test('the genesis parent is the Merkle root of three untagged leaves', async (t) => {
  const leaf = (b: Buffer) =>
    createHash('sha512-256')
      .update(Buffer.concat([Buffer.from([0]), b]))
      .digest()
  const node = (a: Buffer, b: Buffer) =>
    createHash('sha512-256')
      .update(Buffer.concat([Buffer.from([1]), a, b]))
      .digest()
  const u32 = (n: number) => Buffer.from([n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24])
  t.same(genesisParentHash(5, 3), node(node(leaf(Buffer.from('CHAINWEB_GENESIS')), leaf(u32(5))), leaf(u32(3))))
})
