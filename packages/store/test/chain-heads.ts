import { genesisBlock, getNetwork } from '@weft/block'
import t from 'tap'
import { ChainHeads } from '../src/chain-heads.js'
import { headKey } from '../src/keys.js'
import { mineValidChild } from '../src/suite/chain-miner.js'

const development = getNetwork('development')
const singleton = getNetwork('test-singleton')
const genesis0 = () => genesisBlock(singleton, 0).header

t.test(
  "the heads take a block that beats its chain's head, or the first block of a chain; they move only when a draft is committed",
  async (t) => {
    const g = genesis0()
    const heads = new ChainHeads(new Map([[0, g]]))
    const light = mineValidChild(singleton, g)
    const heavy = mineValidChild(singleton, light.header)
    const draft = heads.draft()
    t.ok(draft.offer(light.header))
    t.ok(draft.offer(heavy.header))
    t.notOk(draft.offer(light.header), 'a lighter block does not replace the head')
    const other = genesisBlock(development, 1).header
    t.ok(draft.offer(other), 'the first block of a chain')
    t.same(
      draft.operations().map((operation) => operation.key),
      [headKey(0), headKey(1)],
    )
    t.equal(heads.heads.get(1), undefined, 'not before the commit')
    const next = heads.draft(draft)
    t.equal(next.heads.get(1), other, 'a draft may start from a draft still being written')
    heads.commit(draft)
    t.equal(heads.heads.get(0), heavy.header)
    t.equal(heads.heads.get(1), other)
  },
)
