import { encodeHash } from '@weft/hash-text'
import fc from 'fast-check'
import t from 'tap'
import {
  childHeader,
  computeBlockHash,
  computePayloadHashes,
  difficulty,
  encodeHeader,
  findNonce,
  forkState,
  genesisBlock,
  getNetwork,
  type Header,
  MAX_U256,
  mineChildHeader,
  mineHeader,
  payloadHashesMatch,
  powHash,
  withPayloadHashes,
} from '../src/index.js'
import { headerArb, holds, makePayload, payloadVectors, U64_MAX } from './fixtures/helpers.js'

const development = getNetwork('development')

/** The first nonce from `header.nonce` on that meets the target, by encoding the whole header each time. */
function naiveNonce(header: Header): bigint {
  let nonce = header.nonce
  while (powHash({ ...header, nonce }) > header.target) nonce = (nonce + 1n) & U64_MAX
  return nonce
}

t.test('withPayloadHashes fills in the hashes of the contents, in the contract key order', async (t) => {
  for (const vector of payloadVectors) {
    const { transactions, minerData, coinbase } = vector
    const filled = withPayloadHashes({ coinbase, minerData, transactions })
    t.same(filled, { ...vector, transactionsHash: filled.transactionsHash }, 'the same fields as the real payload')
    t.ok(payloadHashesMatch(filled))
    t.same(Object.keys(filled), ['transactions', 'minerData', 'transactionsHash', 'outputsHash', 'payloadHash', 'coinbase'])
    const hashes = computePayloadHashes(vector)
    t.equal(filled.payloadHash, encodeHash(hashes.payloadHash), 'the real payload hash')
  }
})

t.test('withPayloadHashes ignores wrong hash fields already present and leaves its argument alone', async (t) => {
  const made = makePayload(2, 7)
  const wrong = { ...made, payloadHash: encodeHash(Buffer.alloc(32)) }
  const filled = withPayloadHashes(wrong)
  t.equal(filled.payloadHash, made.payloadHash)
  t.equal(wrong.payloadHash, encodeHash(Buffer.alloc(32)), 'the argument keeps its own fields')
  t.not(filled, wrong)
})

t.test('mineHeader finds the first nonce from the header own that meets the target, as a naive search does', async (t) => {
  holds(
    t,
    fc.property(headerArb, fc.integer({ min: 0, max: 6 }), (header, shift) => {
      // Targets from MAX_U256 (any nonce) down to 1 in 64 nonces: a few dozen attempts at most.
      const target = MAX_U256 >> BigInt(shift)
      const start = { ...header, target }
      const mined = mineHeader(start)
      return (
        mined.nonce === naiveNonce(start) &&
        powHash(mined) <= target &&
        mined.hash.equals(computeBlockHash(mined)) &&
        mined !== start &&
        start.nonce === header.nonce
      )
    }),
    { numRuns: 60 },
  )
})

t.test('mineHeader keeps every field but nonce and hash', async (t) => {
  const genesis = genesisBlock(development, 0).header
  const start = { ...genesis, nonce: 12345n, hash: Buffer.alloc(32) }
  const mined = mineHeader(start)
  t.same({ ...mined, nonce: 0n, hash: Buffer.alloc(32) }, { ...start, nonce: 0n, hash: Buffer.alloc(32) })
  t.ok(mined.nonce >= 12345n, 'counts up from the given nonce')
  t.ok(powHash(mined) <= genesis.target)
})

t.test('findNonce wraps from 2^64 - 1 to 0 and accepts a proof-of-work hash equal to the target', async (t) => {
  const genesis = genesisBlock(development, 0).header
  // Find a header whose last nonce fails a target equal to the powHash at nonce 0: the search
  // starting at 2^64 - 1 must then carry through all eight nonce bytes and stop exactly at 0.
  // (The target is passed apart from the header's own target field, which the hashed bytes contain.)
  let found: { header: Header; target: bigint } | undefined
  for (let time = genesis.creationTime; found === undefined; time++) {
    const header = { ...genesis, creationTime: time, nonce: U64_MAX }
    const target = powHash({ ...header, nonce: 0n })
    if (powHash(header) > target) found = { header, target }
  }
  const binary = encodeHeader(found.header)
  t.equal(findNonce(binary, found.target), 0n)
  t.same(binary, encodeHeader({ ...found.header, nonce: 0n }), 'the binary header is left holding the nonce found')
  t.equal(findNonce(binary, found.target - 1n) > 0n, true, 'a target one less than that hash rejects nonce 0')
})

t.test('mineChildHeader takes the target, epoch start and flags the rules give by default, or the ones given', async (t) => {
  const parent = genesisBlock(development, 0).header
  const fields = { creationTime: parent.creationTime + 30_000_000, adjacents: parent.adjacents, payloadHash: parent.payloadHash }
  const child = mineChildHeader(parent, fields)
  t.equal(child.target, parent.target)
  t.equal(child.weight, parent.weight + difficulty(parent.target))
  t.equal(child.height, parent.height + 1)
  t.same(child.parent, parent.hash)
  t.equal(child.nonce, naiveNonce({ ...child, nonce: 0n }), 'the first nonce from 0 that meets the target')
  t.same(child.hash, computeBlockHash(child))
  const easy = mineChildHeader(parent, { ...fields, target: MAX_U256, nonce: 77n })
  t.equal(easy.nonce, 77n, 'any nonce meets the largest target, so the first one tried is kept')
  t.equal(easy.weight, parent.weight + 1n)
  t.same({ ...easy, nonce: 0n, hash: child.hash, target: 0n, weight: 0n }, { ...child, nonce: 0n, target: 0n, weight: 0n })
  t.equal(child.featureFlags, forkState(0, 1000), 'a yes vote for fork 1 by default, as release 3.2 writes it')
  t.equal(child.epochStart, parent.epochStart)
  const flagged = mineChildHeader(parent, { ...fields, featureFlags: (2_097_152n << 32n) + 1n })
  t.equal(flagged.featureFlags, (2_097_152n << 32n) + 1n, 'flags above 2^53 as given')
  t.same(flagged.hash, computeBlockHash(flagged))
  // A legacy adjustment with no time elapsed has no target: the parent's is taken.
  const mainnet = getNetwork('mainnet01')
  const end = { ...genesisBlock(mainnet, 0).header, height: 11 }
  t.equal(childHeader(end, { ...fields, creationTime: end.epochStart }).target, end.target)
})
