import { genesisBlocks, getNetwork, networkOpening } from '@weft/block'
import t from 'tap'
import { openStore } from '../src/index.js'
import { mineBraid } from '../src/suite/chain-miner.js'

const recap = getNetwork('recap-development')

t.test(
  "mineBraid at recap-development's graph transition mines the old chains at 60 while the new ones wait at their genesis blocks",
  async (t) => {
    // The opening's heads at 59 on the ten old chains, the genesis blocks at 60 of the ten new ones.
    const below = networkOpening(recap).filter((block) => block.header.height <= 59)
    const tips = new Map(
      [...below.filter((block) => block.header.height === 59), ...genesisBlocks(recap).filter((block) => block.header.height === 60)].map(
        (block) => [block.header.chainId, block.header],
      ),
    )
    t.equal(tips.size, 20)
    const { blocks, tips: after } = mineBraid(recap, tips, 60)
    t.same(
      blocks.map((block) => [block.header.chainId, block.header.height]),
      Array.from({ length: 10 }, (_, chain) => [chain, 60]),
      'one block at 60 on each old chain, none on the new',
    )
    t.ok(
      [...after].every(([chain, head]) => head.height === 60 && (chain < 10 || head === tips.get(chain))),
      'the new chains keep their genesis blocks',
    )
    // Blocks by the rules: a store that holds the opening below takes them.
    const store = await openStore({ path: t.testdir(), network: 'recap-development' })
    t.teardown(() => store.close())
    await store.insertMany(below)
    await store.insertMany(blocks)
    t.same(
      [...store.heads()].filter(([chain]) => chain < 10).map(([, head]) => head.height),
      Array.from({ length: 10 }, () => 60),
    )
  },
)
