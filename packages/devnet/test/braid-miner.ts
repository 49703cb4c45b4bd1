import { type Block, genesisBlock, genesisBlocks, getNetwork, type Header, validateBlock } from '@weft/block'
import t from 'tap'
import { BraidMiner } from '../src/braid-miner.js'
import { createRandom } from '../src/random.js'

const network = getNetwork('development')
const genesisWindows = () => new Map([...Array(20).keys()].map((c) => [c, [genesisBlock(network, c).header]]))
const minerWith = (forkRate: number, seed = 'miner') => new BraidMiner(network, genesisWindows(), { random: createRandom(seed), forkRate })
// Every header mined so far (and the genesis ones), by hash: a block's adjacent parents are among them.
const known = new Map(genesisBlocks(network).map((b) => [b.header.hash.toString('hex'), b.header]))
const context = (block: Block) => ({
  network,
  parent: known.get(block.header.parent.toString('hex')),
  adjacentParents: block.header.adjacents.map(([, hash]) => known.get(hash.toString('hex'))!),
})

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
  t.equal(b.creationTime, a.creationTime, 'created at the same time, their payloads differ')
  const winner = Buffer.compare(a.hash, b.hash) < 0 ? a : b
  t.equal(miner.head(4), winner)
  t.ok(parent.hash.equals(a.parent))
  for (const block of blocks) t.same(validateBlock(block, context(block)), [])
  t.equal(miner.mine(9, false).length, 1, 'a fork can be ruled out')
})

t.test('every block mined keeps every rule against its parent and adjacent parents', async (t) => {
  const miner = minerWith(0.2)
  const problems: string[] = []
  for (let i = 0; i < 400; i++) {
    const chain = miner.ready()[0]!
    const mined = miner.mine(chain)
    for (const block of mined) known.set(block.header.hash.toString('hex'), block.header)
    for (const block of mined) {
      const violations = validateBlock(block, context(block))
      if (violations.length > 0) problems.push(violations.map((v) => v.code).join())
    }
  }
  t.same(problems, [])
  t.equal(miner.chains().length, 20)
})
