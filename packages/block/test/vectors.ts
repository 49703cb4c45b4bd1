import { decodeHash, encodeHash } from '@weft/hash-text'
import type { ChainwebFullBlock } from '@weft/types'
import t from 'tap'
import {
  blockFromJson,
  blockToJson,
  computeBlockHash,
  computePayloadHashes,
  decodeHeader,
  difficulty,
  encodeHeader,
  genesisParentHash,
  getNetwork,
  headerFromJson,
  headerToJson,
  powHash,
  powHashHex,
  targetHex,
  txCount,
} from '../src/index.js'
import { blockVectors, fixture, headerKeyOrder, headerVectors, payloadVectors, updateVectors } from './fixtures/helpers.js'

const headers = headerVectors
const blocks = blockVectors
const payloads = payloadVectors
const updates = updateVectors

t.test('the four mainnet headers decode from and encode to their binary form byte for byte', async (t) => {
  t.equal(headers.length, 4)
  for (const v of headers) {
    const bytes = Buffer.from(v.binary, 'base64url')
    const decoded = decodeHeader(bytes)
    const fromJson = headerFromJson(v.object)
    t.same(decoded, fromJson, 'binary and JSON give the same header')
    t.ok(encodeHeader(fromJson).equals(bytes), 'encoding gives the same bytes')
    t.equal(encodeHash(computeBlockHash(decoded)), v.object.hash, 'block hash')
    t.equal(powHashHex(decoded), v.powHash, 'pow hash')
    t.ok(powHash(decoded) <= decoded.target, 'pow is below target')
  }
})

t.test('a header object round-trips through the chainweb profile in canonical key order', async (t) => {
  for (const v of headers) {
    const json = headerToJson(headerFromJson(v.object), 'chainweb')
    t.same(json, v.object)
    t.same(Object.keys(json), headerKeyOrder('chainwebVersion'))
  }
})

t.test('the two mainnet blocks have correct hashes, payloads and weights', async (t) => {
  const [parent, child] = blocks.map((b) => blockFromJson(b))
  if (!parent || !child) throw new Error('fixture')
  for (const b of [parent, child]) {
    t.ok(computeBlockHash(b.header).equals(b.header.hash))
    const p = computePayloadHashes(b.payload)
    t.ok(p.payloadHash.equals(b.header.payloadHash))
    t.equal(encodeHash(p.transactionsHash), b.payload.transactionsHash)
    t.equal(encodeHash(p.outputsHash), b.payload.outputsHash)
  }
  t.equal(child.header.weight, parent.header.weight + difficulty(child.header.target))
  t.ok(child.header.parent.equals(parent.header.hash))
  t.equal(txCount(parent.payload), 0)
  t.equal(txCount(child.payload), 1)
  t.same(blockToJson(child, 'chainweb'), blocks[1])
})

t.test('the two mainnet payloads hash to their recorded hashes', async (t) => {
  for (const p of payloads) {
    const h = computePayloadHashes(p)
    t.equal(encodeHash(h.transactionsHash), p.transactionsHash)
    t.equal(encodeHash(h.outputsHash), p.outputsHash)
    t.equal(encodeHash(h.payloadHash), p.payloadHash)
  }
})

t.test('the two header update events carry the powHash and target we compute', async (t) => {
  for (const u of updates) {
    const h = headerFromJson(u.header)
    t.equal(powHashHex(h), u.powHash)
    t.equal(targetHex(h.target), u.target)
    t.ok(computeBlockHash(h).equals(h.hash))
  }
})

for (const name of ['mainnet01', 'testnet06', 'testnet04', 'recap-development'] as const) {
  t.test(`the 20 real genesis blocks of ${name} reproduce every hash`, async (t) => {
    const network = getNetwork(name)
    const genesis = fixture<ChainwebFullBlock[]>(`genesis-${name}.json`)
    t.equal(genesis.length, 20)
    for (const json of genesis) {
      const b = blockFromJson(json)
      const h = b.header
      t.ok(computeBlockHash(h).equals(h.hash), `chain ${h.chainId} block hash`)
      t.ok(computePayloadHashes(b.payload).payloadHash.equals(h.payloadHash), `chain ${h.chainId} payload hash`)
      t.ok(genesisParentHash(network.versionCode, h.chainId).equals(h.parent), `chain ${h.chainId} parent`)
      for (const [chain, hash] of h.adjacents)
        t.ok(genesisParentHash(network.versionCode, chain).equals(hash), `chain ${h.chainId} adjacent ${chain}`)
      t.equal(h.creationTime, network.genesisTime)
      t.equal(h.epochStart, network.genesisTime)
      t.same(decodeHeader(encodeHeader(h)), h)
      t.equal(decodeHash(json.header.hash).length, 32)
    }
  })
}
