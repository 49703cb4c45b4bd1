import { difficulty, forkState, genesisBlock, getNetwork, graphAt, type Header, powHash, validateBlock } from '@weft/block'
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
  // The neighbours' genesis blocks: created before any child, which is all validateBlock asks of them here.
  const adjacentParents = [...graphAt(network, parent.height + 1).get(parent.chainId)!].sort((a, b) => a - b).map(genesis)
  return mineBlock({ parent, adjacentParents, payload, creationTime, ...(nonce === undefined ? {} : { nonce }) })
}
const contextOf = (block: ReturnType<typeof childOf>, parent: Header) => ({
  network,
  parent,
  adjacentParents: block.header.adjacents.map(([chain]) => genesis(chain)),
})

t.test('a mined child of a genesis block is valid and carries the fields its parent implies', async (t) => {
  const parent = genesis(0)
  const block = childOf(parent)
  t.same(validateBlock(block, contextOf(block, parent)), [])
  t.ok(powHash(block.header) <= block.header.target)
  t.equal(block.header.target, parent.target)
  t.equal(block.header.weight, parent.weight + difficulty(parent.target))
  t.equal(block.header.height, 1)
  t.equal(block.header.epochStart, parent.epochStart)
  t.equal(block.header.featureFlags, forkState(0, 1000), 'a yes vote for fork 1, as release 3.2 writes it')
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
  t.same(validateBlock(block, contextOf(block, parent)), [])
  t.ok(block.header.nonce < last, `found ${block.header.nonce} after wrapping`)
})

t.test('a child of a child is valid against its parent too', async (t) => {
  const first = childOf(genesis(3)).header
  const second = childOf(first)
  t.same(validateBlock(second, contextOf(second, first)), [])
  t.equal(second.header.weight, 2n * difficulty(first.target))
})

t.test('a child whose target is too hard for a CPU is refused with TARGET_TOO_HARD before any hashing', async (t) => {
  const testnet06 = getNetwork('testnet06')
  const parent = genesisBlock(testnet06, 0).header
  const adjacentParents = parent.adjacents.map(([chain]) => genesisBlock(testnet06, chain).header)
  const payload = syntheticPayload(createRandom('hard'), createAccountPool(createRandom('hard')), {
    network: 'testnet06',
    chainId: 0,
    height: 1,
    parent: parent.hash,
    creationTime: parent.creationTime + 30_000_000,
  })
  t.throws(() => mineBlock({ parent, adjacentParents, payload, creationTime: parent.creationTime + 30_000_000 }), {
    code: 'TARGET_TOO_HARD',
    chainId: 0,
  })
})
