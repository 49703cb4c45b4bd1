import { createHash } from 'node:crypto'
import { genesisBlocks, getNetwork, type Network } from '@weft/block'
import t from 'tap'
import { inProfileOrder, profiles } from '../../src/profile/profiles.js'
import { type CutHead, cutText, limitCut } from '../../src/read/cut-body.js'
import { cutAndInfo } from '../fixtures/vectors.js'

const mainnet = getNetwork('mainnet01')

// The heads of a node that stands on its genesis cut: chains 10-19 of mainnet01 are not in it yet.
function genesisHeads(network: Network): CutHead[] {
  return genesisBlocks(network)
    .map(({ header }) => ({ chain: header.chainId, hash: header.hash, height: header.height, weight: header.weight }))
    .filter((head) => head.height === 0)
}

// A made-up line of blocks per chain: the block of chain c at height h has a hash naming both.
function lineBlock(chain: number, height: number): CutHead {
  const hash = createHash('sha512-256').update(`${chain}:${height}`).digest()
  return { chain, hash, height, weight: BigInt(height) * 4n }
}
const lineAncestor = async (hash: Buffer, height: number): Promise<CutHead | undefined> => {
  for (let chain = 0; chain < 20; chain++) {
    for (const top of [5_000_000, 852_060]) if (lineBlock(chain, top).hash.equals(hash)) return lineBlock(chain, height)
  }
  return undefined
}

t.test("the genesis cut is the real node's text, key order and id included", async (t) => {
  t.equal(cutText(profiles.chainweb, mainnet, genesisHeads(mainnet)), cutAndInfo.mainnet01.genesisCut)
  const testnet = getNetwork('testnet06')
  t.equal(cutText(profiles.chainweb, testnet, genesisHeads(testnet)), cutAndInfo.testnet06.genesisCut)
})

t.test('the spec profile lists chains ascending and computes the id over that order', async (t) => {
  const heads = genesisHeads(mainnet).reverse()
  const body = JSON.parse(cutText(profiles.spec, mainnet, heads)) as { hashes: Record<string, unknown>; id: string }
  const text = cutText(profiles.spec, mainnet, heads)
  t.same(
    [...text.matchAll(/"(\d+)":\{"height"/g)].map((match) => Number(match[1])),
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  )
  const ascending = [...heads].sort((a, b) => a.chain - b.chain)
  t.equal(
    body.id,
    createHash('sha512-256')
      .update(Buffer.concat(ascending.map((head) => head.hash)))
      .digest('base64url'),
  )
  t.not(body.id, (JSON.parse(cutAndInfo.mainnet01.genesisCut) as { id: string }).id, 'the order changes the id')
})

t.test('a cut height limits a twenty-chain cut as the real node does', async (t) => {
  const heads = Array.from({ length: 20 }, (_, chain) => lineBlock(chain, 5_000_000))
  for (const { maxheight, blockHeight, chains } of cutAndInfo.mainnet01.maxheight) {
    const limited = await limitCut(mainnet, heads, maxheight, lineAncestor)
    t.equal(limited.length, chains, `maxheight ${maxheight}: ${chains} chains`)
    t.ok(
      limited.every((head) => head.height === Math.min(blockHeight, 5_000_000)),
      `maxheight ${maxheight}: every head at ${blockHeight}`,
    )
    t.same(
      limited.map((head) => head.hash),
      limited.map((head) => lineBlock(head.chain, head.height).hash),
      'each head replaced by its own ancestor',
    )
  }
})

t.test('a cut at or below the limit is answered unchanged, and only heads above it move', async (t) => {
  const genesis = genesisHeads(mainnet)
  t.same(await limitCut(mainnet, genesis, 0, lineAncestor), genesis, 'the genesis cut at maxheight 0')
  const mixed = Array.from({ length: 20 }, (_, chain) => lineBlock(chain, chain === 4 ? 852_054 : 852_060))
  const limited = await limitCut(mainnet, mixed, 852_055 * 20, lineAncestor)
  t.same(
    limited.map((head) => [head.chain, head.height]),
    mixed.map((head) => [head.chain, Math.min(head.height, 852_055)]),
  )
})

t.test('chain order follows the profile', async (t) => {
  t.same(inProfileOrder(profiles.spec, [3, 1, 2]), [1, 2, 3])
  t.same(inProfileOrder(profiles.chainweb, [3, 1, 2]), [1, 2, 3])
  t.same(inProfileOrder(profiles.chainweb, [0, 9, 16]), [16, 9, 0])
})
