// Mines valid blocks for the benchmarks with the suite's miner: test-singleton lines (its one chain needs no neighbours).
import type { Block, Header, Network } from '@weft/block'
import { makePayload, mineValidChild } from '../src/suite/chain-miner.js'

/** The next `count` blocks over all chains of `tips` (chain -> header), round-robin, one transaction each; `tips` is advanced. */
export function mineRound(network: Network, tips: Map<number, Header>, count: number, tagPrefix: string): Block[] {
  const blocks: Block[] = []
  const chains = [...tips.keys()].sort((a, b) => a - b)
  for (let i = 0; i < count; i++) {
    const chain = chains[i % chains.length]!
    const block = mineValidChild(network, tips.get(chain)!, { payload: makePayload(`${tagPrefix}-${i}`, 1) })
    tips.set(chain, block.header)
    blocks.push(block)
  }
  return blocks
}
