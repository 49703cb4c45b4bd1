import {
  EASY_TARGET,
  forkNumberOf,
  forkState,
  forkVotesOf,
  genesisBlock,
  getNetwork,
  type Header,
  MAX_U256,
  networkOpening,
  VOTE_STEP,
} from '@weft/block'
import { type ChainStore, openStore } from '@weft/store'
import { freshFolder } from '@weft/test-kit'
import type { NetworkName } from '@weft/types'
import t, { type Test } from 'tap'
import { childCreationTime, childFeatureFlags } from '../src/chain-rules.js'
import { fill } from '../src/fill.js'
import { createRandom } from '../src/random.js'
import { checkBraid } from './fixtures/braid-check.js'

const open = async (t: Test, network: NetworkName): Promise<ChainStore> => {
  const store = await openStore({ path: freshFolder(t), network })
  t.teardown(() => store.close())
  return store
}
const inserted = (store: ChainStore): Header[] => {
  const headers: Header[] = []
  store.subscribe((event) => {
    if (event.type === 'inserted') headers.push(event.header)
  })
  return headers
}
const TWO_53 = 1n << 53n

t.test('feature flags follow release 3.2: fork 0, and a yes vote for fork 1 on every block of the first fork epoch', async (t) => {
  const store = await open(t, 'development')
  const headers = inserted(store)
  await fill(store, { blocks: 500, seed: 'flags', forkRate: 0.1 })
  const problems = headers.flatMap((header) => {
    const expected = forkState(0, header.height * VOTE_STEP)
    return header.featureFlags === expected ? [] : [`${header.chainId}@${header.height}: ${header.featureFlags}, expected ${expected}`]
  })
  t.same(problems, [], 'the store took each block under the rules; each adds its vote')
  const random = createRandom('rules')
  const singleton = getNetwork('test-singleton')
  t.equal(
    childFeatureFlags(singleton, genesisBlock(singleton, 0).header, [], random),
    forkState(0, VOTE_STEP),
    'test-singleton votes alike',
  )
})

t.test("mainnet01's first blocks carry random feature flags, as its miners' nonces: most above 2^53", async (t) => {
  const store = await open(t, 'mainnet01')
  const headers = inserted(store)
  await fill(store, { blocks: 300, seed: 'nonces' })
  t.equal(headers.length, 300)
  t.ok(headers.filter((header) => header.featureFlags > TWO_53).length > 250, 'above 2^53, exactly through the store')
  t.ok(
    headers.every((header) => header.target === MAX_U256),
    'difficulty 1: the adjustments of the first epochs keep the genesis target, blocks one delay apart',
  )
  t.ok(
    headers.some((header) => forkNumberOf(header.featureFlags) > 1 || forkVotesOf(header.featureFlags) % 1000 !== 0),
    'random bits, no fork state',
  )
})

t.test('creation times are one block delay apart, every chain alike, so every epoch takes its length', async (t) => {
  const development = getNetwork('development')
  const genesis = genesisBlock(development, 0).header
  const delay = 30_000_000
  const first = childCreationTime(development, genesis, genesis.creationTime)
  t.equal(first, genesis.creationTime + delay)
  t.equal(childCreationTime(development, { ...genesis, height: 1, creationTime: first }, first), first + 3 * delay, 'three at height 2')
  t.equal(childCreationTime(development, { ...genesis, height: 2, creationTime: first }, first), first + delay)
  t.equal(
    childCreationTime(development, genesis, genesis.creationTime + 7 * delay),
    genesis.creationTime + 7 * delay + 1,
    'after the latest adjacent',
  )
  const mainnet = getNetwork('mainnet01')
  const mainnetGenesis = genesisBlock(mainnet, 0).header
  t.equal(
    childCreationTime(mainnet, { ...mainnetGenesis, height: 1 }, 0),
    mainnetGenesis.creationTime + delay,
    'no faked epoch start on mainnet01',
  )
})

t.test('recap-development passes its graph transition at 60 from its opening, as the real node does', async (t) => {
  const store = await open(t, 'recap-development')
  const headers: Header[] = []
  // The lowest winning height of the old chains when each block was stored.
  const oldChainsAt: number[] = []
  const reached = new Map<number, number>()
  store.subscribe((event) => {
    if (event.type !== 'inserted') return
    headers.push(event.header)
    if (event.header.chainId < 10) reached.set(event.header.chainId, Math.max(reached.get(event.header.chainId) ?? 0, event.header.height))
    oldChainsAt.push(reached.size < 10 ? 0 : Math.min(...reached.values()))
  })
  t.equal(store.cut().size, 10, 'a genesis store has a ten-chain cut')
  await fill(store, { blocks: 1100, seed: 'recap', forkRate: 0.05 })
  t.ok(
    headers.every((header, index) => header.height <= 60 || oldChainsAt[index]! >= 60),
    'no block above 60 before every old chain reached 60',
  )
  const opening = new Set(networkOpening(store.network).map((block) => block.header.hash.toString('hex')))
  t.ok(
    headers.filter((header) => header.height <= 71).every((header) => opening.has(header.hash.toString('hex'))),
    'the opening is where the braid starts',
  )
  const cut = store.cut()
  t.equal(cut.size, 20, 'twenty chains once every head passed 60')
  t.ok([...cut.values()].every((head) => head.height > 72))
  const report = await checkBraid(store)
  t.same(report.problems, [], 'a consistent braid across the transition')
  const at = (chain: number, height: number) => report.winners.get(chain)!.get(height)!
  const named = (chain: number, height: number) => at(chain, height).adjacents.map(([c]) => c)
  t.same(named(0, 60), [2, 3, 5], 'chain 0 at 60 still braids with the Petersen graph')
  t.same(named(0, 61), [5, 10, 15], 'chain 0 at 61 braids with the twenty-chain graph')
  t.same(at(0, 61).adjacents.find(([c]) => c === 10)![1], genesisBlock(store.network, 10).header.hash, "naming chain 10's genesis block")
  t.same(at(10, 60).hash, genesisBlock(store.network, 10).header.hash, 'chain 10 starts from its genesis block at 60')
  t.same(named(10, 61), [0, 11, 19], "its first block names its neighbours' blocks at 60")
  t.equal(at(10, 71).target, genesisBlock(store.network, 10).header.target, 'its genesis target until the adjustment at 72')
  t.ok(at(10, 72).target > at(10, 71).target * 10_000n, 'which takes it down to a few hashes')
  t.ok(at(0, 12).target === EASY_TARGET, 'chains 0-9 adjusted at 12 to the easy target')
})
