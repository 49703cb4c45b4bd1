import { type Block, blockAdjacentChains, compareHeads, decodeHeader, genesisHeight, type Header } from '@weft/block'
import { mapKeyOfHash } from '@weft/hash-text'
import type { ChainStore } from '@weft/store'
import { type MiningDraws, mineChild } from './braid-miner.js'
import { InvalidDevnetOptionError, ReorgNotFoundError } from './errors.js'
import { checkSeed, DEFAULT_SEED } from './fill.js'
import { createAccountPool } from './payload.js'
import { createRandom } from './random.js'

/** Options of `reorg`. */
export interface ReorgOptions {
  /** The chains of the cut whose best branch is replaced (several reorganise at once). */
  readonly chains: readonly number[]
  /** How many blocks below each chain's head the new branch forks: it replaces that many winning blocks. */
  readonly depth: number
  /** Same seed on a store in the same state: the same blocks. Default `"weft"`. */
  readonly seed?: string | number
}

/** What `reorg` did to one chain. */
export interface ChainReorg {
  readonly chain: number
  /** The last block the old and new branches share. */
  readonly forkPoint: Header
  /** The head the chain had; it and its ancestors down to the fork point are orphans now. */
  readonly oldHead: Header
  /** The new best head, at the old head's height: as heavy, with a lower hash, so fork choice takes it. */
  readonly newHead: Header
}

/** What `reorg` stored. */
export interface ReorgSummary {
  readonly chains: readonly ChainReorg[]
  /** Blocks stored: `depth` per chain. */
  readonly blocks: number
}

// A chain's winning blocks (its best branch) from some height up to its best head, read on first use.
class WinningLines {
  readonly #lines = new Map<number, Map<number, Header>>()
  readonly #store: ChainStore
  readonly #from: number

  constructor(store: ChainStore, from: number) {
    this.#store = store
    this.#from = from
  }

  /** The winning block of `chain` at `height`: the braid keeps every neighbour within reach of the heights a reorg names. */
  async at(chain: number, height: number): Promise<Header> {
    let line = this.#lines.get(chain)
    if (line === undefined) {
      line = await this.#read(chain)
      this.#lines.set(chain, line)
    }
    return line.get(height)!
  }

  // One range read of the chain from `from` up, then a walk down from the cut head.
  async #read(chain: number): Promise<Map<number, Header>> {
    const binaries = new Map<string, Buffer>()
    for await (const item of this.#store.range({ chain, minheight: this.#from })) binaries.set(mapKeyOfHash(item.hash), item.headerBinary)
    const line = new Map<number, Header>()
    let at = this.#store.heads().get(chain)
    while (at !== undefined && at.height >= this.#from) {
      line.set(at.height, at)
      const parent = binaries.get(mapKeyOfHash(at.parent))
      at = parent === undefined ? undefined : decodeHeader(parent)
    }
    return line
  }
}

// Tries of a branch's last block for a hash below the old head's: half of them succeed when the old
// head's hash is about the middle, one in 2^16 when it starts with two zero bytes.
const headTries = 1 << 16
/**
 * Replaces the best branch of each of `chains` by one that forks `depth` blocks below its head and
 * wins fork choice: new blocks at the same heights, braided as the devnet braids (a chain that
 * reorganises with a neighbour names the neighbour's new blocks; others name the winning blocks they
 * name now). Within an epoch every block's target is its parent's, so the branch weighs what the old
 * one does, height for height; its last block is mined again until its hash is below the old head's,
 * which wins the tie (`compareHeads`). Neighbours that do not reorganise keep naming the old branch's
 * blocks. Stores every block in one `insertMany`, lowest heights first.
 */
export async function reorg(store: ChainStore, options: ReorgOptions): Promise<ReorgSummary> {
  const { chains, depth, seed = DEFAULT_SEED } = options
  const network = store.network
  const cut = store.cut()
  if (!Number.isSafeInteger(depth) || depth < 1) throw new InvalidDevnetOptionError('depth', 'a positive integer', depth)
  if (chains.length === 0 || new Set(chains).size !== chains.length || chains.some((chain) => !cut.has(chain)))
    throw new InvalidDevnetOptionError('chains', `distinct chains of the cut (${[...cut.keys()].join(', ')})`, chains.join(', '))
  checkSeed(seed)
  const heads = new Map(chains.map((chain) => [chain, cut.get(chain)!]))
  for (const [chain, head] of heads) {
    if (head.height - depth < genesisHeight(network, chain))
      throw new InvalidDevnetOptionError('depth', `at most ${head.height - genesisHeight(network, chain)} on chain ${chain}`, depth)
  }
  const random = createRandom(seed)
  const draws: MiningDraws = { random, pool: createAccountPool(random) }
  const lowest = Math.min(...[...heads.values()].map((head) => head.height - depth))
  const winning = new WinningLines(store, Math.max(0, lowest - 1))
  // Each reorganising chain's new branch by height, starting from its fork point.
  const branches = new Map<number, Map<number, Header>>()
  for (const [chain, head] of heads) branches.set(chain, new Map([[head.height - depth, await winning.at(chain, head.height - depth)]]))
  const blockAt = async (chain: number, height: number): Promise<Header> => branches.get(chain)?.get(height) ?? winning.at(chain, height)
  const blocks: Block[] = []
  const top = Math.max(...[...heads.values()].map((head) => head.height))
  for (let height = lowest + 1; height <= top; height++) {
    for (const [chain, head] of [...heads].sort(([a], [b]) => a - b)) {
      if (height <= head.height - depth || height > head.height) continue
      const parent = branches.get(chain)!.get(height - 1)!
      const adjacentParents: Header[] = []
      for (const neighbour of blockAdjacentChains(network, chain, height)!) adjacentParents.push(await blockAt(neighbour, height - 1))
      let block = mineChild(network, draws, parent, adjacentParents)
      for (let tries = 1; height === head.height && compareHeads(block.header, head) >= 0; tries++) {
        // Not reached by the tests: an old head whose hash starts with two zero bytes is one in 65,536.
        /* c8 ignore next */
        if (tries === headTries) throw new ReorgNotFoundError(chain, head.hash)
        block = mineChild(network, draws, parent, adjacentParents)
      }
      branches.get(chain)!.set(height, block.header)
      blocks.push(block)
    }
  }
  await store.insertMany(blocks)
  return {
    chains: [...heads].map(([chain, head]) => {
      const branch = branches.get(chain)!
      return { chain, forkPoint: branch.get(head.height - depth)!, oldHead: head, newHead: branch.get(head.height)! }
    }),
    blocks: blocks.length,
  }
}
