import type { PayloadWithOutputs } from '@weft/types'
import t from 'tap'
import {
  type Block,
  type BlockValidationError,
  type BlockViolationCode,
  braidingViolations,
  checkBlockWork,
  checkHeaderWork,
  computeBlockHash,
  countVotes,
  forkState,
  genesisBlock,
  genesisParentHash,
  getNetwork,
  type Header,
  mineChildHeader,
  networkOpening,
  validateBlock,
  validateHeader,
} from '../src/index.js'
import { contextOf, mineBraid } from './fixtures/braid.js'

// Validation of where a block stands: its chain, the graph it braids with, its network, braiding,
// and malformed values in memory (the single-field changes are in validate.ts).
const development = getNetwork('development')
const recap = getNetwork('recap-development')
const codes = (errors: BlockValidationError[]): BlockViolationCode[] => errors.map((e) => e.code)
const withHeader = (b: Block, change: Partial<Header>): Block => ({ header: { ...b.header, ...change }, payload: b.payload })
const withPayload = (b: Block, change: Partial<PayloadWithOutputs>): Block => ({ header: b.header, payload: { ...b.payload, ...change } })
const rehash = (b: Block): Block => withHeader(b, { hash: computeBlockHash(b.header) })
const braid = mineBraid(development, 3)
const block = braid.blocks.find((b) => b.header.chainId === 4 && b.header.height === 3)!
const context = { network: development, ...contextOf(braid, block.header) }

t.test('a genesis block of a chain the network lacks, or of another network, is refused', async (t) => {
  const singleton = getNetwork('test-singleton')
  t.same(codes(validateBlock(genesisBlock(development, 9), { network: singleton })), ['INVALID_VERSION', 'INVALID_GENESIS'])
  t.same(codes(validateBlock(genesisBlock(getNetwork('mainnet01'), 0), { network: 'test-singleton' })), [
    'INVALID_VERSION',
    'INVALID_GENESIS',
  ])
})

t.test("recap-development's opening braids through the graph transition at 60 as the real node does, every block valid", async (t) => {
  const opening = networkOpening(recap)
  t.equal(opening.length, 10 * 71 + 10 * 11, 'chains 0-9 from 1 to 71, chains 10-19 from 61 to 71')
  const known = new Map<string, Header>(
    [...Array.from({ length: 20 }, (_, chain) => genesisBlock(recap, chain).header), ...opening.map((b) => b.header)].map((h) => [
      h.hash.toString('hex'),
      h,
    ]),
  )
  const found = opening.flatMap(({ header }) => {
    const parent = known.get(header.parent.toString('hex'))
    const adjacentParents = header.adjacents.map(([, hash]) => known.get(hash.toString('hex'))!)
    return codes([
      ...validateHeader(header, { network: recap, parent, adjacentParents }),
      ...braidingViolations(header, adjacentParents, parent),
    ])
  })
  t.same(found, [], 'every rule, braiding with the parent too, across the transition')
  const at = (chain: number, height: number) => opening.find((b) => b.header.chainId === chain && b.header.height === height)!.header
  t.same(
    at(0, 60).adjacents.map(([c]) => c),
    [2, 3, 5],
    'the first block at the transition still braids with the Petersen graph',
  )
  t.same(
    at(0, 61).adjacents.map(([c]) => c),
    [5, 10, 15],
    'the next one with the twenty-chain graph',
  )
  t.ok(at(0, 12).target > at(0, 11).target * 1000n, 'the adjustment at 12 brought the genesis target down to a few hashes')
  // Block 60 of chain 0 naming its Petersen neighbours' blocks as if they were on the twenty-chain graph's chains.
  const block60 = at(0, 60)
  const renamed = rehash({
    header: { ...block60, adjacents: block60.adjacents.map(([, hash], i) => [[5, 10, 15][i]!, hash] as const) },
    payload: opening[0]!.payload,
  })
  const adjacentParents = block60.adjacents.map(([chain]) => at(chain, 59))
  t.ok(
    codes(validateHeader(renamed.header, { network: recap, parent: at(0, 59), adjacentParents })).includes('INVALID_ADJACENTS'),
    'not yet the twenty-chain neighbours',
  )
})

t.test('braiding (the store rule) wants every adjacent parent one height below the block', async (t) => {
  t.same(codes(braidingViolations(block.header, context.adjacentParents)), [])
  t.same(codes(braidingViolations(block.header, context.adjacentParents, context.parent)), [])
  const early = context.adjacentParents.map((a, i) => (i === 1 ? braid.at(a.chainId, 1) : a))
  const named = { ...block.header, adjacents: block.header.adjacents.map(([c], i) => [c, early[i]!.hash] as const) }
  t.same(codes(braidingViolations(named, early)), ['INVALID_BRAIDING'])
  t.same(codes(braidingViolations(named, [])), [], 'adjacent parents not given are not judged')
})

t.test('with the parent, braiding wants the parent and each adjacent parent to name each other parents', async (t) => {
  // Chain 4's neighbour at 2 mined again on a sibling of chain 4's block at 1: it names another
  // block at 1 than the parent of chain 4's block at 2.
  const [neighbour] = block.header.adjacents[0]!
  const parent = context.parent
  const sibling = mineChildHeader(braid.at(4, 0), {
    creationTime: braid.at(4, 1).creationTime,
    adjacentParents: braid.at(4, 1).adjacents.map(([c]) => braid.at(c, 0)),
    payloadHash: braid.at(4, 1).payloadHash,
    nonce: 1n << 40n,
  })
  const across = braid.at(neighbour, 2)
  const astray = mineChildHeader(braid.at(neighbour, 1), {
    creationTime: across.creationTime,
    adjacentParents: across.adjacents.map(([c]) => (c === 4 ? sibling : braid.at(c, 1))),
    payloadHash: across.payloadHash,
  })
  const adjacentParents = context.adjacentParents.map((a) => (a.chainId === neighbour ? astray : a))
  const header = mineChildHeader(parent, {
    creationTime: block.header.creationTime,
    adjacentParents,
    payloadHash: block.header.payloadHash,
  })
  t.same(codes(validateHeader(header, { network: development, parent, adjacentParents })), [], 'every rule of validateHeader holds')
  t.same(codes(braidingViolations(header, adjacentParents)), [], 'heights alone do not tell')
  t.same(codes(braidingViolations(header, adjacentParents, parent)), ['INVALID_BRAIDING'])
  t.same(codes(braidingViolations(header, adjacentParents, braid.at(9, 2))), [], 'a block that is not the parent is not judged')
})

t.test('a malformed header or payload in memory is reported, not thrown', async (t) => {
  const badVersion = withHeader(block, { version: 'mainnet02' as Header['version'] })
  const found = validateBlock(badVersion, context)
  t.same(codes(found), ['INVALID_BLOCK_HASH', 'INVALID_POW', 'INVALID_VERSION'])
  t.equal((found[0]?.cause as { code?: string } | undefined)?.code, 'UNKNOWN_NETWORK')
  const badPayload = withPayload(block, { minerData: undefined as unknown as string })
  const payloadFound = validateBlock(badPayload, context)
  t.same(codes(payloadFound), ['INVALID_PAYLOAD_HASH'])
  t.ok(payloadFound[0]?.cause instanceof Error)
  const badTime = validateBlock(withHeader(block, { creationTime: Number.NaN }), context)
  t.equal(badTime[0]?.code, 'INVALID_BLOCK_HASH')
  t.ok(badTime[0]?.cause instanceof RangeError, 'a time that is not an integer cannot be hashed')
  // A target of 0 has no difficulty, so no weight is right for it (the node's division would fail).
  const zero = validateHeader({ ...block.header, target: 0n }, { ...context, work: { blockHash: undefined, pow: undefined } })
  t.match(
    zero.find((v) => v.code === 'INVALID_WEIGHT'),
    { message: /Expected weight none \(target 0\)/ },
  )
})

t.test('the hashing checks run apart, as plain data that crosses threads, and validation takes them', async (t) => {
  const good = checkBlockWork(block)
  t.same(good, { blockHash: undefined, payloadHash: undefined, pow: undefined })
  t.same(checkHeaderWork(block.header), { blockHash: undefined, pow: undefined })
  const broken = withHeader(block, { nonce: block.header.nonce + 1n })
  const work = structuredClone(checkBlockWork(broken))
  t.equal(work.blockHash?.code, 'INVALID_BLOCK_HASH')
  t.same(codes(validateBlock(broken, { ...context, work })), codes(validateBlock(broken, context)))
  const expected = ['INVALID_BLOCK_HASH', ...(work.pow === undefined ? [] : ['INVALID_POW'])]
  t.same(codes(validateBlock(block, { ...context, work })), expected, 'the given checks are what counts')
  t.same(
    codes(validateHeader(block.header, { ...context, now: block.header.creationTime - 1 })),
    ['BLOCK_IN_THE_FUTURE'],
    'the clock is the one given',
  )
})

t.test('an adjacent that names a genesis parent hash stands for that genesis block, and is not it', async (t) => {
  const first = braid.blocks.find((b) => b.header.chainId === 4 && b.header.height === 1)!
  const named = first.header.adjacents.map(
    ([chain], i) => [chain, i === 0 ? genesisParentHash(development.versionCode, chain) : first.header.adjacents[i]![1]] as const,
  )
  const header = rehash({ header: { ...first.header, adjacents: named }, payload: first.payload }).header
  const found = codes(
    validateHeader(header, { network: development, ...contextOf(braid, first.header), work: { blockHash: undefined, pow: undefined } }),
  )
  t.same(found, ['INVALID_ADJACENT_PARENT'])
})

t.test('a block that counts votes carries the average of its parent and adjacent parents', async (t) => {
  // The braid's block at 3, its parent and adjacent parents moved up by 14,280 heights (119 epochs):
  // the same place in an epoch, but among the last 120 blocks of a fork epoch, which count votes.
  const up = (h: Header, votes: number): Header => ({ ...h, height: h.height + 14_280, featureFlags: forkState(0, votes) })
  const parent = up(context.parent, 4000)
  const adjacentParents = context.adjacentParents.map((a, i) => up(a, i * 1000))
  const counted = countVotes([4000, 0, 1000, 2000])
  const judge = (votes: number) =>
    codes(
      validateHeader(up(block.header, votes), {
        network: development,
        parent,
        adjacentParents,
        work: { blockHash: undefined, pow: undefined },
      }),
    )
  t.same(judge(counted), [])
  t.same(judge(counted + 1000), ['INVALID_FORK_VOTES'])
})

t.test('at a fork epoch start the fork number moves on when the votes of the last epoch decide it', async (t) => {
  // The braid's block at 3 and its parents moved up to 14,400, the start of the second fork epoch.
  const up = (h: Header, flags: bigint): Header => ({ ...h, height: h.height + 14_397, featureFlags: flags })
  const judge = (parentVotes: number, fork: number) => {
    const parent = up(context.parent, forkState(0, parentVotes))
    const adjacentParents = context.adjacentParents.map((a) => up(a, 0n))
    const found = validateHeader(up(block.header, forkState(fork, 0)), {
      network: development,
      parent,
      adjacentParents,
      work: { blockHash: undefined, pow: undefined },
    })
    return codes(found).includes('INVALID_FORK_NUMBER')
  }
  t.equal(judge(9_520_000, 1), false, 'two thirds of 14,280 votes: the next fork')
  t.equal(judge(9_520_000, 0), true)
  t.equal(judge(9_519_000, 0), false, 'one vote short: the same fork')
  t.equal(judge(9_519_000, 1), true)
})

t.test('a block is created after its parent and, since OldDAGuard, after every adjacent parent', async (t) => {
  const adjacentParents = context.adjacentParents.map((a, i) => (i === 1 ? { ...a, creationTime: block.header.creationTime } : a))
  const found = validateHeader(block.header, { ...context, adjacentParents, work: { blockHash: undefined, pow: undefined } })
  t.same(codes(found), ['INVALID_CREATION_TIME'])
  t.match(found[0]!.message, `adjacent parent's on chain ${adjacentParents[1]!.chainId}`)
})

t.test('a target that malformed times make impossible to compute is reported, not thrown', async (t) => {
  const at12 = mineBraid(development, 12)
  const header = at12.blocks.find((b) => b.header.chainId === 0 && b.header.height === 12)!.header
  const parent = { ...at12.at(0, 11), creationTime: Number.NaN }
  const found = validateHeader(header, { network: development, parent, adjacentParents: header.adjacents.map(([c]) => at12.at(c, 11)) })
  t.ok(found.some((e) => e.code === 'INVALID_TARGET' && e.cause instanceof RangeError))
})

t.test('a network without an opening has none', async (t) => {
  t.same(networkOpening(development), [])
})
