import { genesisBlocks, getNetwork } from '@weft/block'
import t from 'tap'
import { blocksOf, cutOf, followerStore, mineBraid, storedHashes, testStore } from '../src/index.js'

const development = getNetwork('development')

t.test('a test store and a follower are fresh, apart, and read back as hashes, blocks and cut', async (t) => {
  const store = await testStore(t)
  const follower = await followerStore(t)
  t.equal(store.cutPolicy, 'fork-choice')
  t.equal(follower.cutPolicy, 'adopted')
  const { blocks, tips } = mineBraid(development, new Map(genesisBlocks(development).map((b) => [b.header.chainId, b.header])), 2)
  await store.insertMany(blocks)
  const stored = await blocksOf(store)
  t.equal(stored.length, 60)
  t.same(
    stored.filter((block) => block.header.height > 0).map((block) => block.header.hash),
    blocks.map((block) => block.header.hash),
    'parents first, by height then chain',
  )
  t.same(cutOf(store), Object.fromEntries([...tips].map(([chain, tip]) => [String(chain), tip.hash.toString('base64url')])))
  const hashes = await storedHashes(store)
  t.equal(hashes.length, 20, "the latest graph's chains")
  t.equal(hashes[0]!.length, 3)
  t.same(
    await storedHashes(follower),
    (await storedHashes(store)).map((chain) => chain.slice(0, 1)),
  )
})
