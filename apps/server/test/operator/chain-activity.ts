import { genesisBlock, getNetwork, type Header } from '@weft/block'
import { createAccountPool, createRandom, mineBlock, syntheticPayload } from '@weft/devnet'
import { encodeHash } from '@weft/hash-text'
import { openStore } from '@weft/store'
import t from 'tap'
import { RATE_WINDOW_MS, type Reorg, trackChainActivity } from '../../src/operator/chain-activity.js'

const network = getNetwork('test-singleton')

// A child of `parent` on the singleton chain (no adjacents); `seed` makes siblings differ.
function childOf(parent: Header, seed: string) {
  const random = createRandom(seed)
  const creationTime = parent.creationTime + 1_000_000
  const context = { network: network.name, chainId: 0, height: parent.height + 1, parent: parent.hash, creationTime }
  return mineBlock({ parent, adjacentParents: [], payload: syntheticPayload(random, createAccountPool(random), context), creationTime })
}

t.test('writes per chain, the rate over the last minute, and a reorg from the cut events', async (t) => {
  const store = await openStore({ path: t.testdir(), network: 'test-singleton' })
  let now = 1_000_000
  const activity = trackChainActivity(store, () => now)
  const seen: Reorg[] = []
  activity.onReorg((reorg) => seen.push(reorg))
  t.teardown(async () => {
    activity.close()
    await store.close()
  })
  const genesis = genesisBlock(network, 0).header
  const a1 = childOf(genesis, 'a')
  const b1 = childOf(genesis, 'b')
  const b2 = childOf(b1.header, 'b2')
  await store.insert(a1)
  now += 1000
  await store.insert(b1)
  await store.insert(b2)
  t.same([...activity.inserted()], [[0, 3]])
  t.equal(activity.blocksPerSecond(now + 1000), 1.5, 'three blocks over the two seconds since start')
  t.equal(activity.blocksPerSecond(now + RATE_WINDOW_MS + 1), 0, 'none in the last minute')
  // A1 leaves the cut for the B branch (for B1 already when its hash wins the tie, else for B2).
  const to = b1.header.hash.compare(a1.header.hash) < 0 ? b1.header : b2.header
  const reorg = {
    chain: 0,
    depth: 1,
    forkHeight: 0,
    from: { height: 1, hash: encodeHash(a1.header.hash) },
    to: { height: to.height, hash: encodeHash(to.hash) },
  }
  t.match(activity.recentReorgs(), [reorg])
  t.equal(activity.recentReorgs().length, 1, 'extending the new head is no reorg')
  t.match(seen, [reorg], 'the listener heard it')
})
