import { readFileSync } from 'node:fs'
import type { ChainwebFullBlock, NetworkName } from '@weft/types'
import t from 'tap'
import {
  blockToJson,
  computeBlockHash,
  computePayloadHashes,
  difficulty,
  EASY_TARGET,
  genesisBlock,
  genesisBlocks,
  genesisHeight,
  genesisParentHash,
  getNetwork,
  graphAt,
  powHash,
} from '../src/index.js'

for (const name of ['mainnet01', 'testnet06', 'testnet04', 'recap-development'] as const) {
  t.test(`the ${name} genesis blocks are the real ones, byte for byte`, async (t) => {
    const real = JSON.parse(
      readFileSync(new URL(`../../../fixtures/vectors/genesis-${name}.json`, import.meta.url), 'utf8'),
    ) as ChainwebFullBlock[]
    const network = getNetwork(name)
    const blocks = genesisBlocks(network)
    t.equal(blocks.length, 20)
    t.equal(JSON.stringify(blocks.map((b) => blockToJson(b, 'chainweb'))), JSON.stringify(real), 'same JSON text, key order included')
    t.same(
      blocks.map((b) => b.header.height),
      blocks.map((b) => genesisHeight(network, b.header.chainId)),
    )
  })
}

for (const name of ['development', 'test-singleton'] as const satisfies NetworkName[]) {
  t.test(`the ${name} genesis blocks follow the contract's rules`, async (t) => {
    const network = getNetwork(name)
    const blocks = genesisBlocks(network)
    t.equal(blocks.length, name === 'development' ? 20 : 1)
    for (const { header: h, payload } of blocks) {
      t.ok(h.parent.equals(genesisParentHash(network.versionCode, h.chainId)))
      t.same(
        h.adjacents.map(([c]) => c),
        [...(graphAt(network, 0).get(h.chainId) ?? [])].sort((a, b) => a - b),
      )
      for (const [c, hash] of h.adjacents) t.ok(hash.equals(genesisParentHash(network.versionCode, c)))
      t.same([h.nonce, h.weight, h.featureFlags, h.height], [0n, 0n, 0n, 0])
      t.same([h.creationTime, h.epochStart], [network.genesisTime, network.genesisTime])
      t.equal(h.target, EASY_TARGET)
      t.ok(computePayloadHashes(payload).payloadHash.equals(h.payloadHash))
      t.ok(computeBlockHash(h).equals(h.hash))
      t.equal(payload.transactions.length, 0)
    }
  })
}

t.test('the easy genesis target accepts one random nonce in four', async (t) => {
  t.equal(difficulty(EASY_TARGET), 4n)
  const network = getNetwork('development')
  const h = genesisBlock(network, 3).header
  let found = 0
  const tries = 2000
  for (let nonce = 0n; nonce < BigInt(tries); nonce++) if (powHash({ ...h, nonce }) <= EASY_TARGET) found++
  // Binomial(2000, 1/4): mean 500, standard deviation about 19; 400..600 is over five deviations.
  t.ok(found > 400 && found < 600, `${found} of ${tries} nonces succeed`)
})

t.test('every call returns a fresh copy that callers may change', async (t) => {
  const network = getNetwork('mainnet01')
  const a = genesisBlock(network, 0)
  a.header.hash.fill(0)
  a.payload.transactions.length = 0
  const b = genesisBlock(network, 0)
  t.notSame(b.header.hash, a.header.hash)
  t.equal(b.payload.transactions.length, 6)
})

t.test('a chain the network never has has no genesis block', async (t) => {
  t.throws(() => genesisBlock(getNetwork('test-singleton'), 1), { code: 'UNKNOWN_CHAIN' })
  t.throws(() => genesisBlock(getNetwork('mainnet01'), 20), { code: 'UNKNOWN_CHAIN' })
})
