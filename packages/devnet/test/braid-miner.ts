import { genesisBlock, getNetwork, type Header, validateBlock } from '@weft/block'
import t from 'tap'
import { BraidMiner, latestCreationTime } from '../src/braid-miner.js'
import { simulatedClock } from '../src/clock.js'
import { createRandom } from '../src/random.js'

const network = getNetwork('development')
const genesisWindows = () => new Map([...Array(20).keys()].map((c) => [c, [genesisBlock(network, c).header]]))
const minerWith = (forkRate: number, seed = 'miner') => {
  const random = createRandom(seed)
  return new BraidMiner(network, genesisWindows(), { random, forkRate, clock: simulatedClock(random, network.genesisTime, 1.5e6) })
}

t.test('a chain that waits for a neighbour cannot be mined', async (t) => {
  const miner = minerWith(0)
  miner.mine(0)
  t.notOk(miner.ready().includes(0))
  t.throws(() => miner.mine(0), { code: 'CHAIN_NOT_READY', chainId: 0, message: /a neighbour is behind it/ })
  t.throws(() => miner.mine(20), { code: 'CHAIN_NOT_READY', chainId: 20, message: /the braid does not know it/ })
})

t.test('with fork rate 1 every block gets a sibling and the lower hash wins', async (t) => {
  const miner = minerWith(1)
  const parent = miner.head(4)!
  const blocks = miner.mine(4)
  t.equal(blocks.length, 2)
  const [a, b] = blocks.map((block) => block.header) as [Header, Header]
  t.ok(a.parent.equals(b.parent) && a.height === b.height, 'siblings')
  t.notOk(a.hash.equals(b.hash))
  t.ok(b.creationTime > a.creationTime)
  const winner = Buffer.compare(a.hash, b.hash) < 0 ? a : b
  t.equal(miner.head(4), winner)
  for (const block of blocks) t.same(validateBlock(block, parent, network), [])
  t.equal(miner.mine(9, false).length, 1, 'a fork can be ruled out')
})

t.test('blocks are mined after their parent and their adjacents', async (t) => {
  const miner = minerWith(0.2)
  const problems: string[] = []
  for (let i = 0; i < 400; i++) {
    const chain = miner.ready()[0]!
    const parent = miner.head(chain)!
    for (const block of miner.mine(chain)) {
      const violations = validateBlock(block, parent, network)
      if (violations.length > 0) problems.push(violations.map((v) => v.code).join())
      if (block.header.creationTime <= parent.creationTime) problems.push('not after its parent')
    }
  }
  t.same(problems, [])
  t.equal(miner.chains().length, 20)
})

t.test('the latest creation time of windows is that of their newest head', async (t) => {
  const windows = new Map<number, Header[]>([
    [0, [{ creationTime: 5 } as Header, { creationTime: 9 } as Header]],
    [1, [{ creationTime: 7 } as Header]],
    [2, []],
  ])
  t.equal(latestCreationTime(windows), 9)
})
