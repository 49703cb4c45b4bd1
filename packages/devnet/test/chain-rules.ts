import { EASY_TARGET, genesisBlock, getNetwork, type Header } from '@weft/block'
import { type ChainStore, openStore } from '@weft/store'
import t, { type Test } from 'tap'
import { childFeatureFlags, childTarget, DEVNET_FORK_NUMBER, VOTE_STEP, VOTES_START } from '../src/chain-rules.js'
import { fill } from '../src/fill.js'
import { createRandom } from '../src/random.js'
import { checkBraid } from './fixtures/braid-check.js'
import { freshFolder } from './fixtures/fresh-folder.js'

const open = async (t: Test, network: 'development' | 'recap-development'): Promise<ChainStore> => {
  const store = await openStore({ path: freshFolder(t), network })
  t.teardown(() => store.close())
  return store
}
const TWO_53 = 1n << 53n

t.test('featureFlags are release-3.2 style: a fork number low, votes high, a yes vote adds 1000, above 2^53 soon', async (t) => {
  const store = await open(t, 'development')
  const inserted: Header[] = []
  store.subscribe((event) => {
    if (event.type === 'inserted') inserted.push(event.header)
  })
  // About 25 blocks per chain: at --block-delay 0.2 that is well within a minute.
  await fill(store, { blocks: 500, seed: 'flags' })
  const byHash = new Map(inserted.map((header) => [header.hash.toString('base64url'), header]))
  const problems: string[] = []
  for (const header of inserted) {
    const parent = byHash.get(header.parent.toString('base64url'))
    const votes = header.featureFlags >> 32n
    if ((header.featureFlags & 0xffffffffn) !== DEVNET_FORK_NUMBER) problems.push(`fork number of ${header.featureFlags}`)
    if (parent === undefined && (votes < VOTES_START || votes >= VOTES_START + 8n * VOTE_STEP)) problems.push(`first votes ${votes}`)
    const step = parent === undefined ? 0n : votes - (parent.featureFlags >> 32n)
    if (step !== 0n && step !== VOTE_STEP) problems.push(`votes moved by ${step}`)
  }
  t.same(problems, [])
  const flags = inserted.map((header) => header.featureFlags)
  t.ok(
    flags.some((value) => value < TWO_53),
    'some below 2^53',
  )
  const above = inserted.filter((header) => header.featureFlags > TWO_53)
  t.ok(above.length > 20, `${above.length} above 2^53`)
  t.ok(Math.min(...above.map((header) => header.height)) < 25, 'within the first 25 heights')
})

t.test('other networks keep featureFlags 0; targets are the easy one after genesis on devnet networks', async (t) => {
  const random = createRandom('rules')
  const singleton = getNetwork('test-singleton')
  t.equal(childFeatureFlags(singleton, genesisBlock(singleton, 0).header, random), 0n)
  const recap = getNetwork('recap-development')
  const hard = genesisBlock(recap, 3).header
  t.ok(hard.target < EASY_TARGET, "recap-development's real genesis target is hard")
  t.equal(childTarget(recap, hard), EASY_TARGET)
  const mainnet = getNetwork('mainnet01')
  t.equal(childTarget(mainnet, genesisBlock(mainnet, 0).header), genesisBlock(mainnet, 0).header.target, 'elsewhere the parent target')
})

t.test('recap-development mines through its graph transition at 60 as the real node does', async (t) => {
  const store = await open(t, 'recap-development')
  const inserted: Header[] = []
  // The lowest winning height of the old chains when each block was stored.
  const oldChainsAt: number[] = []
  const reached = new Map<number, number>()
  store.subscribe((event) => {
    if (event.type !== 'inserted') return
    inserted.push(event.header)
    if (event.header.chainId < 10) reached.set(event.header.chainId, Math.max(reached.get(event.header.chainId) ?? 0, event.header.height))
    oldChainsAt.push(reached.size < 10 ? 0 : Math.min(...reached.values()))
  })
  t.equal(store.cut().size, 10, 'a genesis store has a ten-chain cut')
  await fill(store, { blocks: 700, seed: 'recap', forkRate: 0.05 })
  t.ok(
    inserted.every((header, index) => header.height <= 60 || oldChainsAt[index]! >= 60),
    'no block above 60 before every old chain reached 60',
  )
  const cut = store.cut()
  t.equal(cut.size, 20, 'twenty chains once every head passed 60')
  t.ok([...cut.values()].every((head) => head.height > 60))
  const report = await checkBraid(store)
  t.same(report.problems, [], 'a consistent braid across the transition')
  for (const chain of [0, 10]) {
    const at = (height: number) => report.winners.get(chain)!.get(height)!
    const named = (height: number) => at(height).adjacents.map(([c]) => c)
    if (chain === 0) {
      t.same(named(60), [2, 3, 5], 'chain 0 at 60 still braids with the Petersen graph')
      t.same(named(61), [5, 10, 15], 'chain 0 at 61 braids with the twenty-chain graph')
      t.same(at(61).adjacents.find(([c]) => c === 10)![1], genesisBlock(store.network, 10).header.hash, "naming chain 10's genesis block")
    } else {
      t.same(at(60).hash, genesisBlock(store.network, 10).header.hash, 'chain 10 starts from its genesis block at 60')
      t.same(named(61), [0, 11, 19], "its first block names its neighbours' blocks at 60")
      t.equal(at(61).target, EASY_TARGET, 'mined at the easy target')
    }
  }
})
