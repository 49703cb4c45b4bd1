import { encodeHash } from '@weft/hash-text'
import { networkNames, type PayloadWithOutputs } from '@weft/types'
import fc from 'fast-check'
import t, { type Test } from 'tap'
import {
  allChains,
  type Block,
  BlockValidationError,
  type BlockViolationCode,
  computeBlockHash,
  difficulty,
  genesisBlock,
  genesisBlocks,
  getNetwork,
  type Header,
  type Network,
  validateBlock,
} from '../src/index.js'
import { featureFlagsArb, hashArb, holds, mainnetPair, mineChild, networkNameArb, u32Arb, u64Arb, u256Arb } from './fixtures/helpers.js'

const mainnet = getNetwork('mainnet01')
const development = getNetwork('development')
const codes = (errors: BlockValidationError[]): BlockViolationCode[] => errors.map((e) => e.code)

// A short devnet chain 7: genesis, then two children mined with real proof of work.
const devGenesis = genesisBlock(development, 7)
const dev1 = mineChild(devGenesis.header, development)
const dev2 = mineChild(dev1.header, development, 3)

t.test('the real mainnet block 1000001 is valid with 1000000 as its parent', async (t) => {
  const { parent, child } = mainnetPair()
  t.same(validateBlock(child, parent.header, mainnet), [])
})

t.test('every genesis block of every network is valid without a parent', async (t) => {
  for (const name of networkNames) {
    const network = getNetwork(name)
    t.same(
      genesisBlocks(network).flatMap((b) => codes(validateBlock(b, undefined, network))),
      [],
      name,
    )
  }
})

t.test('devnet blocks mined at the easy target are valid children', async (t) => {
  t.same(validateBlock(dev1, devGenesis.header, development), [])
  t.same(validateBlock(dev2, dev1.header, development), [])
  t.equal(dev2.header.weight, 8n, 'two blocks of difficulty 4 on a genesis of weight 0')
})

t.test('an invalid block reports every violation at once, each with its code and message', async (t) => {
  const { parent, child } = mainnetPair()
  const found = validateBlock(parent, child.header, mainnet)
  t.same(codes(found), ['INVALID_PARENT', 'INVALID_HEIGHT', 'INVALID_CREATION_TIME', 'INVALID_WEIGHT'])
  for (const e of found) {
    t.ok(e instanceof BlockValidationError)
    t.equal(e.name, 'BlockValidationError')
  }
  t.match(found[1]?.message, /Expected height 1000002, received 1000000/)
})

// One kind of change to one field, and the code that must report it.
interface FieldChange {
  field: string
  code: BlockViolationCode
  // whether the change touches the header, so that the block hash can be recomputed to isolate the field's own rule
  inHeader: boolean
  // whether the change is caught only by proof of work, so needs a hard target to be certain
  powOnly?: boolean
  change(block: Block, parent: Header): fc.Arbitrary<Block>
}

const withHeader = (b: Block, change: Partial<Header>): Block => ({ header: { ...b.header, ...change }, payload: b.payload })
const withPayload = (b: Block, change: Partial<PayloadWithOutputs>): Block => ({ header: b.header, payload: { ...b.payload, ...change } })
const base64Arb = fc.string({ minLength: 1 }).map((s) => Buffer.from(s).toString('base64url'))

const fieldChanges: FieldChange[] = [
  {
    field: 'nonce',
    code: 'INVALID_POW',
    inHeader: true,
    powOnly: true,
    change: (b) => u64Arb.filter((n) => n !== b.header.nonce).map((nonce) => withHeader(b, { nonce })),
  },
  {
    field: 'creationTime',
    code: 'INVALID_CREATION_TIME',
    inHeader: true,
    change: (b, p) =>
      fc
        .oneof(fc.constant(0), fc.nat(), fc.maxSafeNat())
        .map((back) => p.creationTime - back)
        .filter((v) => v !== b.header.creationTime)
        .map((creationTime) => withHeader(b, { creationTime })),
  },
  {
    field: 'parent',
    code: 'INVALID_PARENT',
    inHeader: true,
    change: (b) => hashArb.filter((h) => !h.equals(b.header.parent)).map((parent) => withHeader(b, { parent })),
  },
  {
    field: 'adjacents (chain ids)',
    code: 'INVALID_ADJACENTS',
    inHeader: true,
    change: (b) => {
      const adj = b.header.adjacents
      return fc
        .oneof(
          fc.nat(adj.length - 1).map((i) => adj.filter((_, j) => j !== i)),
          fc
            .tuple(
              u32Arb.filter((c) => !adj.some(([a]) => a === c)),
              hashArb,
            )
            .map((extra) => [...adj, extra].sort((x, y) => x[0] - y[0])),
          fc
            .tuple(
              fc.nat(adj.length - 1),
              u32Arb.filter((c) => !adj.some(([a]) => a === c)),
            )
            .map(([i, c]) => adj.map((a, j) => (j === i ? ([c, a[1]] as const) : a)).sort((x, y) => x[0] - y[0])),
          fc.constant([...adj].reverse()),
          fc.constant([]),
        )
        .map((adjacents) => withHeader(b, { adjacents }))
    },
  },
  {
    field: 'adjacents (a hash)',
    code: 'INVALID_POW',
    inHeader: true,
    powOnly: true,
    change: (b) =>
      fc
        .tuple(fc.nat(b.header.adjacents.length - 1), hashArb)
        .map(([i, h]) => withHeader(b, { adjacents: b.header.adjacents.map((a, j) => (j === i ? ([a[0], h] as const) : a)) })),
  },
  {
    // A target change that keeps the difficulty and the proof of work passing cannot be caught without difficulty adjustment rules, which CONTRACT.md does not define.
    field: 'target',
    code: 'INVALID_WEIGHT',
    inHeader: true,
    change: (b) =>
      u256Arb.filter((x) => x > 0n && difficulty(x) !== difficulty(b.header.target)).map((target) => withHeader(b, { target })),
  },
  {
    field: 'payloadHash',
    code: 'INVALID_PAYLOAD_HASH',
    inHeader: true,
    change: (b) => hashArb.filter((h) => !h.equals(b.header.payloadHash)).map((payloadHash) => withHeader(b, { payloadHash })),
  },
  {
    field: 'chainId',
    code: 'INVALID_CHAIN',
    inHeader: true,
    change: (b) => u32Arb.filter((c) => c !== b.header.chainId).map((chainId) => withHeader(b, { chainId })),
  },
  {
    field: 'weight',
    code: 'INVALID_WEIGHT',
    inHeader: true,
    change: (b) => u256Arb.filter((w) => w !== b.header.weight).map((weight) => withHeader(b, { weight })),
  },
  {
    field: 'height',
    code: 'INVALID_HEIGHT',
    inHeader: true,
    change: (b) =>
      fc
        .maxSafeNat()
        .filter((h) => h !== b.header.height)
        .map((height) => withHeader(b, { height })),
  },
  {
    field: 'version',
    code: 'INVALID_VERSION',
    inHeader: true,
    change: (b) => networkNameArb.filter((v) => v !== b.header.version).map((version) => withHeader(b, { version })),
  },
  {
    field: 'epochStart',
    code: 'INVALID_POW',
    inHeader: true,
    powOnly: true,
    change: (b) =>
      fc
        .maxSafeInteger()
        .filter((e) => e !== b.header.epochStart)
        .map((epochStart) => withHeader(b, { epochStart })),
  },
  {
    field: 'featureFlags',
    code: 'INVALID_POW',
    inHeader: true,
    powOnly: true,
    change: (b) => featureFlagsArb.filter((f) => f !== b.header.featureFlags).map((featureFlags) => withHeader(b, { featureFlags })),
  },
  {
    field: 'hash',
    code: 'INVALID_BLOCK_HASH',
    inHeader: true,
    change: (b) => hashArb.filter((h) => !h.equals(b.header.hash)).map((hash) => withHeader(b, { hash })),
  },
  {
    field: 'payload minerData',
    code: 'INVALID_PAYLOAD_HASH',
    inHeader: false,
    change: (b) => base64Arb.filter((m) => m !== b.payload.minerData).map((minerData) => withPayload(b, { minerData })),
  },
  {
    field: 'payload coinbase',
    code: 'INVALID_PAYLOAD_HASH',
    inHeader: false,
    change: (b) => base64Arb.filter((c) => c !== b.payload.coinbase).map((coinbase) => withPayload(b, { coinbase })),
  },
  {
    field: 'payload transactions',
    code: 'INVALID_PAYLOAD_HASH',
    inHeader: false,
    change: (b) =>
      fc
        .oneof(
          fc.tuple(base64Arb, base64Arb).map((pair) => [...b.payload.transactions, pair]),
          fc.constant(b.payload.transactions.slice(1)),
          fc.constant(b.payload.transactions.map(([tx, out]) => [out, tx] as [string, string])),
        )
        .filter((txs) => JSON.stringify(txs) !== JSON.stringify(b.payload.transactions))
        .map((transactions) => withPayload(b, { transactions })),
  },
  ...(['transactionsHash', 'outputsHash', 'payloadHash'] as const).map(
    (key): FieldChange => ({
      field: `payload ${key}`,
      code: 'INVALID_PAYLOAD_HASH',
      inHeader: false,
      change: (b) =>
        hashArb
          .map(encodeHash)
          .filter((h) => h !== b.payload[key])
          .map((h) => withPayload(b, { [key]: h })),
    }),
  ),
]

const rehash = (b: Block): Block => withHeader(b, { hash: computeBlockHash(b.header) })

function checkChanges(t: Test, base: Block, parent: Header, network: Network, powIsHard: boolean): void {
  for (const c of fieldChanges) {
    if (c.powOnly && !powIsHard) continue
    const fails = fc.property(c.change(base, parent), (changed) => {
      if (!codes(validateBlock(changed, parent, network)).includes(c.code)) return false
      if (!c.inHeader || c.field === 'hash') return true
      // With the block hash recomputed, the field's own rule must still catch the change.
      const rehashed = codes(validateBlock(rehash(changed), parent, network))
      return rehashed.includes(c.code) && !rehashed.includes('INVALID_BLOCK_HASH')
    })
    holds(t, fails, { numRuns: 60 }, `a changed ${c.field} fails with ${c.code}`)
  }
}

t.test('changing any single field of the real mainnet block makes validation fail with the matching code', async (t) => {
  const { parent, child } = mainnetPair()
  checkChanges(t, child, parent.header, mainnet, true)
})

t.test('changing any single field of a devnet block makes validation fail with the matching code', async (t) => {
  // Proof of work at the easy target passes one nonce in four, so PoW-only changes are left to the mainnet property.
  checkChanges(t, dev2, dev1.header, development, false)
})

t.test('changing any single field of a genesis block makes validation fail', async (t) => {
  for (const network of [mainnet, development]) {
    const genesis = genesisBlock(network, 3)
    for (const c of fieldChanges) {
      const fails = fc.property(c.change(genesis, genesis.header), (changed) => {
        const block = c.inHeader && c.field !== 'hash' ? rehash(changed) : changed
        const expected = !c.inHeader
          ? 'INVALID_PAYLOAD_HASH'
          : allChains(network).includes(block.header.chainId)
            ? 'INVALID_GENESIS'
            : 'INVALID_CHAIN'
        return codes(validateBlock(block, undefined, network)).includes(expected)
      })
      holds(t, fails, { numRuns: 30 }, `${network.name}: a changed genesis ${c.field} fails`)
    }
  }
})
