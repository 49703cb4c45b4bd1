// The devnet blocks @weft/index tests and benchmarks on (packages/index/test/fixtures): @weft/index
// sits below the devnet, so it cannot mine them itself. `node tools/repo-checks/dist/write-index-fixture.js`
// writes them; test/index-fixture.ts checks that the committed file is what the devnet makes today.

import { genesisBlocks, getNetwork } from '@weft/block'
import { BraidMiner, createRandom } from '@weft/devnet'
import { encodeHash } from '@weft/hash-text'
import type { PayloadWithOutputs } from '@weft/types'

/** One block of the fixture: where it is and its payload with outputs. */
export interface FixtureBlock {
  readonly chain: number
  readonly height: number
  readonly hash: string
  readonly payload: PayloadWithOutputs
}

/** Where the fixture lives, from the repository root. */
export const INDEX_FIXTURE = 'packages/index/test/fixtures/devnet-blocks.json'

/** The first `count` blocks a seeded devnet mines on `development` above genesis, without forks. */
export function mineIndexFixture(count = 60, seed = 'index-fixture'): FixtureBlock[] {
  const network = getNetwork('development')
  const genesis = genesisBlocks(network)
  const random = createRandom(seed)
  const miner = new BraidMiner(network, new Map(genesis.map((block) => [block.header.chainId, [block.header]])), {
    random,
    forkRate: 0,
  })
  const blocks: FixtureBlock[] = []
  while (blocks.length < count) {
    for (const block of miner.mine(random.pick(miner.ready()), false)) {
      const { chainId, height, hash } = block.header
      blocks.push({ chain: chainId, height, hash: encodeHash(hash), payload: block.payload })
    }
  }
  return blocks
}

/** The fixture file's text: one block a line, so that a change reads well in a diff. */
export function indexFixtureText(blocks: readonly FixtureBlock[]): string {
  return `[\n${blocks.map((block) => JSON.stringify(block)).join(',\n')}\n]\n`
}
