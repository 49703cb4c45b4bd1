import { difficulty, genesisBlock, getNetwork, graphAt, type Header, powHash, validateBlock } from '@weft/block'
import t from 'tap'
import { mineBlock } from '../src/mine.js'
import { createAccountPool, syntheticPayload } from '../src/payload.js'
import { createRandom } from '../src/random.js'

const network = getNetwork('development')
const genesis = (chain: number) => genesisBlock(network, chain).header

const childOf = (parent: Header, nonce?: bigint) => {
  const random = createRandom(`mine-${parent.chainId}`)
  const creationTime = parent.creationTime + 1_000_000
  const payload = syntheticPayload(random, createAccountPool(random), {
    network: network.name,
    chainId: parent.chainId,
    height: parent.height + 1,
    parent: parent.hash,
    creationTime,
  })
  // Any block of the right chains will do for validateBlock, which cannot see other chains.
  const adjacents = [...graphAt(network, parent.height + 1).get(parent.chainId)!]
    .sort((a, b) => a - b)
    .map((c) => [c, genesis(c).hash] as const)
  return mineBlock({ parent, adjacents, payload, creationTime, ...(nonce === undefined ? {} : { nonce }) })
}

t.test('a mined child of a genesis block is valid and carries the fields its parent implies', async (t) => {
  const parent = genesis(0)
  const block = childOf(parent)
  t.same(validateBlock(block, parent, network), [])
  t.ok(powHash(block.header) <= block.header.target)
  t.equal(block.header.target, parent.target)
  t.equal(block.header.weight, parent.weight + difficulty(parent.target))
  t.equal(block.header.height, 1)
  t.equal(block.header.epochStart, parent.epochStart)
  t.equal(block.header.featureFlags, 0n)
  t.equal(block.header.version, 'development')
  t.ok(block.header.parent.equals(parent.hash))
  t.equal(block.header.payloadHash.toString('base64url'), block.payload.payloadHash)
})

t.test('the nonce is the first one from the starting nonce that meets the target', async (t) => {
  const parent = genesis(0)
  const start = 1000n
  const block = childOf(parent, start)
  t.ok(block.header.nonce >= start)
  for (let nonce = start; nonce < block.header.nonce; nonce++) {
    t.ok(powHash({ ...block.header, nonce }) > block.header.target, `nonce ${nonce} fails the target`)
  }
})

t.test('counting the nonce up wraps around at 2^64', async (t) => {
  const last = (1n << 64n) - 1n
  // A parent whose child fails the target at the last nonce, so the search must carry across all
  // eight bytes to nonce 0.
  const parent = [...Array(20).keys()].map(genesis).find((p) => powHash({ ...childOf(p, 0n).header, nonce: last }) > p.target)!
  const block = childOf(parent, last)
  t.same(validateBlock(block, parent, network), [])
  t.ok(block.header.nonce < last, `found ${block.header.nonce} after wrapping`)
})

t.test('a child of a child is valid against its parent too', async (t) => {
  const first = childOf(genesis(3)).header
  const second = childOf(first)
  t.same(validateBlock(second, first, network), [])
  t.equal(second.header.weight, 2n * difficulty(first.target))
})
