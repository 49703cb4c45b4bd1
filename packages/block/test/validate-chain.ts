import type { PayloadWithOutputs } from '@weft/types'
import t from 'tap'
import {
  type Block,
  type BlockValidationError,
  type BlockViolationCode,
  checkBlockWork,
  computeBlockHash,
  difficulty,
  EASY_TARGET,
  genesisBlock,
  getNetwork,
  type Header,
  mineChildHeader,
  validateBlock,
} from '../src/index.js'
import { mainnetPair } from './fixtures/helpers.js'

// Validation of where a block stands: its chain, the graph it braids with, its network, and
// malformed values in memory (the single-field changes are in validate.ts).
const mainnet = getNetwork('mainnet01')
const development = getNetwork('development')
const codes = (errors: BlockValidationError[]): BlockViolationCode[] => errors.map((e) => e.code)
const withHeader = (b: Block, change: Partial<Header>): Block => ({ header: { ...b.header, ...change }, payload: b.payload })
const withPayload = (b: Block, change: Partial<PayloadWithOutputs>): Block => ({ header: b.header, payload: { ...b.payload, ...change } })
const rehash = (b: Block): Block => withHeader(b, { hash: computeBlockHash(b.header) })

t.test('a genesis block of a chain the network lacks is on an invalid chain', async (t) => {
  const genesis = genesisBlock(mainnet, 0)
  t.same(codes(validateBlock(genesis, undefined, getNetwork('test-singleton'))), ['INVALID_VERSION', 'INVALID_GENESIS'])
  const chain9 = genesisBlock(development, 9)
  t.same(codes(validateBlock(chain9, undefined, getNetwork('test-singleton'))), ['INVALID_VERSION', 'INVALID_CHAIN'])
})

t.test('a block on a chain that does not exist yet at its height is on an invalid chain', async (t) => {
  const { parent, child } = mainnetPair()
  const onChain10 = (h: Header): Header => ({ ...h, chainId: 10, height: 5 })
  const block = rehash(withHeader(child, onChain10(child.header)))
  const found = codes(validateBlock(block, { ...onChain10(parent.header), height: 4 }, mainnet))
  t.ok(found.includes('INVALID_CHAIN'))
  t.notOk(found.includes('INVALID_ADJACENTS'), 'adjacents are not judged on a chain that does not exist')
})

t.test("at a graph transition a block braids with the graph of its parent's height", async (t) => {
  const recap = getNetwork('recap-development')
  const genesis = genesisBlock(recap, 0)
  // A made-up parent at 59 (validation judges the child against it, not the parent itself).
  const parent: Header = { ...genesis.header, height: 59, target: EASY_TARGET, weight: 59n * difficulty(EASY_TARGET) }
  const adjacents = (chains: number[]) => chains.map((c) => [c, Buffer.alloc(32, c + 1)] as const)
  const at60 = (chains: number[]): Block => ({
    header: mineChildHeader(parent, {
      creationTime: parent.creationTime + 1,
      adjacents: adjacents(chains),
      payloadHash: genesis.header.payloadHash,
    }),
    payload: genesis.payload,
  })
  t.same(codes(validateBlock(at60([2, 3, 5]), parent, recap)), [], 'the Petersen neighbours at 60')
  t.same(codes(validateBlock(at60([5, 10, 15]), parent, recap)), ['INVALID_ADJACENTS'], 'not yet the twenty-chain ones')
  const child = at60([2, 3, 5]).header
  const at61 = (chains: number[]): Block => ({
    header: mineChildHeader(child, {
      creationTime: child.creationTime + 1,
      adjacents: adjacents(chains),
      payloadHash: genesis.header.payloadHash,
    }),
    payload: genesis.payload,
  })
  t.same(codes(validateBlock(at61([5, 10, 15]), child, recap)), [], 'the twenty-chain neighbours at 61')
  t.same(codes(validateBlock(at61([2, 3, 5]), child, recap)), ['INVALID_ADJACENTS'])
})

t.test('a parent of another network makes the version invalid', async (t) => {
  const { parent, child } = mainnetPair()
  t.same(codes(validateBlock(child, { ...parent.header, version: 'testnet04' }, mainnet)), ['INVALID_VERSION'])
})

t.test('a malformed header or payload in memory is reported, not thrown', async (t) => {
  const { parent, child } = mainnetPair()
  const badVersion = withHeader(child, { version: 'mainnet02' as Header['version'] })
  const found = validateBlock(badVersion, parent.header, mainnet)
  t.same(codes(found), ['INVALID_BLOCK_HASH', 'INVALID_VERSION', 'INVALID_POW'])
  t.equal((found[0]?.cause as { code?: string } | undefined)?.code, 'UNKNOWN_NETWORK')
  const badPayload = withPayload(child, { minerData: undefined as unknown as string })
  const payloadFound = validateBlock(badPayload, parent.header, mainnet)
  t.same(codes(payloadFound), ['INVALID_PAYLOAD_HASH'])
  t.ok(payloadFound[0]?.cause instanceof Error)
})

t.test('the hashing checks run apart, as plain data that crosses threads, and validateBlock takes them', async (t) => {
  const { parent, child } = mainnetPair()
  const good = checkBlockWork(child)
  t.same(good, { blockHash: undefined, payloadHash: undefined, pow: undefined })
  const broken = withHeader(child, { nonce: child.header.nonce + 1n })
  const work = structuredClone(checkBlockWork(broken))
  t.same([work.blockHash?.code, work.pow?.code], ['INVALID_BLOCK_HASH', 'INVALID_POW'])
  t.same(codes(validateBlock(broken, parent.header, mainnet, work)), codes(validateBlock(broken, parent.header, mainnet)))
  t.same(
    codes(validateBlock(child, parent.header, mainnet, work)),
    ['INVALID_BLOCK_HASH', 'INVALID_POW'],
    'the given checks are what counts',
  )
})
