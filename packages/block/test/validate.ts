import { encodeHash } from '@weft/hash-text'
import { networkNames, type PayloadWithOutputs } from '@weft/types'
import fc from 'fast-check'
import t from 'tap'
import {
  addVote,
  type Block,
  BlockValidationError,
  type BlockViolationCode,
  checkBlockWork,
  computeBlockHash,
  forkNumberOf,
  forkState,
  forkVotesOf,
  genesisBlock,
  genesisBlocks,
  getNetwork,
  type Header,
  validateBlock,
  validateHeader,
} from '../src/index.js'
import { contextOf, mineBraid } from './fixtures/braid.js'
import { featureFlagsArb, hashArb, holds, mainnetPair, networkNameArb, u32Arb, u64Arb, u256Arb } from './fixtures/helpers.js'

const mainnet = getNetwork('mainnet01')
const development = getNetwork('development')
const codes = (errors: BlockValidationError[]): BlockViolationCode[] => errors.map((e) => e.code)

// All twenty development chains up to 26: the adjustments of the first epoch at 12 and 24 included.
const braid = mineBraid(development, 26)
// A child of the braid that casts a vote and starts no epoch, and the clock it is judged by.
const child = braid.blocks.find((b) => b.header.chainId === 7 && b.header.height === 25)!
const now = child.header.creationTime + 60_000_000
const contextOfChild = { network: development, now, ...contextOf(braid, child.header) }

t.test('every block of a braid mined by the rules is valid against its parent and adjacent parents', async (t) => {
  const found = braid.blocks.flatMap((block) => codes(validateBlock(block, { network: development, ...contextOf(braid, block.header) })))
  t.same(found, [])
  t.equal(braid.blocks.length, 20 * 26)
  t.not(braid.at(0, 12).target, braid.at(0, 11).target, 'the first epoch adjusted the target at 12')
})

t.test('every genesis block of every network is valid without a parent, whatever the clock', async (t) => {
  for (const name of networkNames) {
    const network = getNetwork(name)
    t.same(
      genesisBlocks(network).flatMap((b) => codes(validateBlock(b, { network, now: 0 }))),
      [],
      name,
    )
  }
})

t.test(
  'the real mainnet block 1000001 keeps every rule with its real parent; without adjacent parents nothing more is judged',
  async (t) => {
    const { parent, child: real } = mainnetPair()
    t.same(checkBlockWork(real), { blockHash: undefined, payloadHash: undefined, pow: undefined })
    t.same(codes(validateBlock(real, { network: mainnet, parent: parent.header })), ['MISSING_ADJACENT_PARENT'])
    // Stand-ins for its adjacent parents: blocks of the neighbours at the parent's height, created
    // before it, that hash to what it names (the rules read those fields, not the neighbours' own hashes).
    const adjacentParents = real.header.adjacents.map(([chain, hash]) => ({ ...parent.header, chainId: chain, hash }))
    t.same(codes(validateBlock(real, { network: 'mainnet01', parent: parent.header, adjacentParents })), [])
    t.same(codes(validateBlock(real, { network: mainnet, adjacentParents: new Map(adjacentParents.map((a) => [a.chainId, a])) })), [
      'MISSING_PARENT',
    ])
  },
)

t.test('adjacent parents are found by their hash, given as a map, an object or a list', async (t) => {
  const { parent, adjacentParents } = contextOf(braid, child.header)
  const byChain = Object.fromEntries(adjacentParents.map((a) => [String(a.chainId), a]))
  for (const given of [adjacentParents, new Map(adjacentParents.map((a) => [a.chainId, a])), byChain, [...adjacentParents].reverse()])
    t.same(codes(validateBlock(child, { network: development, parent, adjacentParents: given, now })), [])
  const swapped = adjacentParents.map((a, i) => (i === 0 ? { ...a, chainId: adjacentParents[1]!.chainId } : a))
  t.same(codes(validateHeader(child.header, { network: development, parent, adjacentParents: swapped, now })), ['INVALID_ADJACENT_PARENT'])
  const foreign = adjacentParents.map((a) => ({ ...a, version: 'test-singleton' as const }))
  t.same(codes(validateHeader(child.header, { network: development, parent, adjacentParents: foreign, now })), ['INVALID_ADJACENT_VERSION'])
})

t.test('a violation is a BlockValidationError whose message says what was expected and what was received', async (t) => {
  const late = { ...child.header, height: 27 }
  const found = validateHeader(late, contextOfChild)
  t.ok(found.every((e) => e instanceof BlockValidationError && e.name === 'BlockValidationError'))
  t.match(found.find((e) => e.code === 'INVALID_HEIGHT')?.message, /Expected height 25, received 27/)
})

// One kind of change to one field of a valid child, and the code that must report it.
interface FieldChange {
  readonly field: string
  readonly code: (changed: Block) => BlockViolationCode
  // Whether the block hash is recomputed after the change, so that the field's own rule alone must catch it.
  readonly rehash: boolean
  readonly change: (block: Block, context: typeof contextOfChild) => fc.Arbitrary<Block>
}

const withHeader = (b: Block, change: Partial<Header>): Block => ({ header: { ...b.header, ...change }, payload: b.payload })
const withPayload = (b: Block, change: Partial<PayloadWithOutputs>): Block => ({ header: b.header, payload: { ...b.payload, ...change } })
const base64Arb = fc.string({ minLength: 1 }).map((s) => Buffer.from(s).toString('base64url'))
const always = (code: BlockViolationCode) => () => code

const fieldChanges: FieldChange[] = [
  {
    field: 'target',
    code: always('INVALID_TARGET'),
    rehash: true,
    change: (b) => u256Arb.filter((x) => x !== b.header.target).map((target) => withHeader(b, { target })),
  },
  {
    field: 'epoch start',
    code: always('INVALID_EPOCH_START'),
    rehash: true,
    change: (b) =>
      fc
        .maxSafeInteger()
        .filter((e) => e !== b.header.epochStart)
        .map((epochStart) => withHeader(b, { epochStart })),
  },
  {
    field: 'creation time (not after its parent and adjacent parents)',
    code: always('INVALID_CREATION_TIME'),
    rehash: true,
    change: (b, c) => {
      const latest = Math.max(c.parent.creationTime, ...c.adjacentParents.map((a) => a.creationTime))
      return fc
        .oneof(fc.constant(0), fc.nat(), fc.maxSafeNat())
        .map((back) => latest - back)
        .map((creationTime) => withHeader(b, { creationTime }))
    },
  },
  {
    field: 'creation time (in the future)',
    code: always('BLOCK_IN_THE_FUTURE'),
    rehash: true,
    change: (b, c) => fc.integer({ min: c.now + 1, max: Number.MAX_SAFE_INTEGER }).map((creationTime) => withHeader(b, { creationTime })),
  },
  {
    field: 'feature flags',
    // A vote block keeps its parent's fork number and votes or adds one vote: anything else is refused.
    code: (changed) => (forkNumberOf(changed.header.featureFlags) === 0 ? 'INVALID_FORK_VOTES' : 'INVALID_FORK_NUMBER'),
    rehash: true,
    change: (b, c) => {
      const votes = forkVotesOf(c.parent.featureFlags)
      return fc
        .oneof(
          featureFlagsArb,
          u32Arb.map((v) => forkState(0, v)),
        )
        .filter((flags) => forkNumberOf(flags) !== 0 || (forkVotesOf(flags) !== votes && forkVotesOf(flags) !== addVote(votes)))
        .map((featureFlags) => withHeader(b, { featureFlags }))
    },
  },
  {
    field: 'weight',
    code: always('INVALID_WEIGHT'),
    rehash: true,
    change: (b) => u256Arb.filter((w) => w !== b.header.weight).map((weight) => withHeader(b, { weight })),
  },
  {
    field: 'one adjacent hash',
    code: always('MISSING_ADJACENT_PARENT'),
    rehash: true,
    change: (b) =>
      fc
        .tuple(fc.nat(b.header.adjacents.length - 1), hashArb)
        .map(([i, h]) => withHeader(b, { adjacents: b.header.adjacents.map((a, j) => (j === i ? ([a[0], h] as const) : a)) })),
  },
  {
    field: 'adjacent chain ids',
    code: always('INVALID_ADJACENTS'),
    rehash: true,
    // Named on another chain, the block is still given (found by its hash): only the chain ids are wrong.
    change: (b) =>
      fc
        .tuple(
          fc.nat(b.header.adjacents.length - 1),
          u32Arb.filter((chain) => !b.header.adjacents.some(([a]) => a === chain)),
        )
        .map(([i, chain]) => withHeader(b, { adjacents: b.header.adjacents.map((a, j) => (j === i ? ([chain, a[1]] as const) : a)) })),
  },
  {
    field: 'parent',
    code: always('MISSING_PARENT'),
    rehash: true,
    change: (b) => hashArb.filter((h) => !h.equals(b.header.parent)).map((parent) => withHeader(b, { parent })),
  },
  {
    field: 'height',
    code: always('INVALID_HEIGHT'),
    rehash: true,
    change: (b) =>
      fc
        .integer({ min: 1, max: Number.MAX_SAFE_INTEGER })
        .filter((h) => h !== b.header.height)
        .map((height) => withHeader(b, { height })),
  },
  {
    field: 'chain',
    code: always('INVALID_CHAIN'),
    rehash: true,
    change: (b) => u32Arb.filter((c) => c !== b.header.chainId).map((chainId) => withHeader(b, { chainId })),
  },
  {
    field: 'version',
    code: always('INVALID_VERSION'),
    rehash: true,
    change: (b) => networkNameArb.filter((v) => v !== b.header.version).map((version) => withHeader(b, { version })),
  },
  {
    field: 'nonce',
    code: always('INVALID_BLOCK_HASH'),
    rehash: false,
    change: (b) => u64Arb.filter((n) => n !== b.header.nonce).map((nonce) => withHeader(b, { nonce })),
  },
  {
    field: 'hash',
    code: always('INVALID_BLOCK_HASH'),
    rehash: false,
    change: (b) => hashArb.filter((h) => !h.equals(b.header.hash)).map((hash) => withHeader(b, { hash })),
  },
  {
    field: 'payload hash',
    code: always('INVALID_PAYLOAD_HASH'),
    rehash: true,
    change: (b) => hashArb.filter((h) => !h.equals(b.header.payloadHash)).map((payloadHash) => withHeader(b, { payloadHash })),
  },
  {
    field: 'payload miner data',
    code: always('INVALID_PAYLOAD_HASH'),
    rehash: false,
    change: (b) => base64Arb.filter((m) => m !== b.payload.minerData).map((minerData) => withPayload(b, { minerData })),
  },
  {
    field: 'payload transactions',
    code: always('INVALID_PAYLOAD_HASH'),
    rehash: false,
    change: (b) => fc.tuple(base64Arb, base64Arb).map((pair) => withPayload(b, { transactions: [...b.payload.transactions, pair] })),
  },
  ...(['transactionsHash', 'outputsHash', 'payloadHash'] as const).map(
    (key): FieldChange => ({
      field: `payload ${key}`,
      code: always('INVALID_PAYLOAD_HASH'),
      rehash: false,
      change: (b) =>
        hashArb
          .map(encodeHash)
          .filter((h) => h !== b.payload[key])
          .map((h) => withPayload(b, { [key]: h })),
    }),
  ),
]

const rehashed = (b: Block): Block => withHeader(b, { hash: computeBlockHash(b.header) })

t.test('changing one field of a valid child always makes validation fail with that field rule code', async (t) => {
  for (const c of fieldChanges) {
    const property = fc.property(c.change(child, contextOfChild), (changed) => {
      const block = c.rehash ? rehashed(changed) : changed
      const found = codes(validateBlock(block, contextOfChild))
      return found.includes(c.code(changed)) && (!c.rehash || !found.includes('INVALID_BLOCK_HASH'))
    })
    holds(t, property, { numRuns: 80 }, `a changed ${c.field} fails with its code`)
  }
})

t.test('changing any field of a genesis block makes it another block than the genesis block', async (t) => {
  for (const network of [mainnet, development]) {
    const genesis = genesisBlock(network, 3)
    const { header } = genesis
    // Each change differs from the genesis value (mainnet01's genesis target is 2^256 - 1, which the
    // generator draws too).
    const property = fc.property(
      fc.oneof(
        u256Arb.filter((target) => target !== header.target).map((target) => ({ target })),
        fc
          .maxSafeInteger()
          .filter((epochStart) => epochStart !== header.epochStart)
          .map((epochStart) => ({ epochStart })),
        featureFlagsArb.filter((f) => f !== header.featureFlags).map((featureFlags) => ({ featureFlags })),
        u256Arb.filter((w) => w !== header.weight).map((weight) => ({ weight })),
        hashArb.filter((parent) => !Buffer.from(parent).equals(header.parent)).map((parent) => ({ parent })),
      ),
      (change) => codes(validateBlock(rehashed(withHeader(genesis, change)), { network })).includes('INVALID_GENESIS'),
    )
    holds(t, property, { numRuns: 50 }, `${network.name}: a changed genesis header is refused`)
  }
  const altered = rehashed(withHeader(genesisBlock(development, 3), { target: 1n }))
  t.same(codes(validateBlock(altered, { network: development })), ['INVALID_GENESIS_TARGET', 'INVALID_GENESIS'])
})
