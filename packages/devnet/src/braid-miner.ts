import { type Block, blockAdjacentChains, cutChains, type Header, isLastInEpoch, type Network } from '@weft/block'
import type { ChainStore } from '@weft/store'
import { Braid, type BraidTransition } from './braid.js'
import { checkMinable, childCreationTime, childFeatureFlags, openingBlock } from './chain-rules.js'
import { ChainNotReadyError } from './errors.js'
import { mineBlock } from './mine.js'
import { type AccountPool, createAccountPool, syntheticPayload } from './payload.js'
import type { Random } from './random.js'

/** How a BraidMiner mines. */
export interface BraidMinerOptions {
  readonly random: Random
  /** Probability in [0, 1] that a block gets a sibling that loses. */
  readonly forkRate: number
}

// Neighbours are at most one height apart, so a few winners per chain are all the braid consults.
const WINDOW = 4

/**
 * Mines braided blocks on every chain, forks included, keeping only a small window of each
 * chain's recent winning headers in memory. It does not write: the caller stores what it returns.
 */
export class BraidMiner {
  readonly network: Network
  #braid: Braid<Header>
  readonly #random: Random
  readonly #forkRate: number
  readonly #pool: AccountPool

  /** `windows`: each chain's recent winning headers, oldest first, the head last. */
  constructor(network: Network, windows: ReadonlyMap<number, readonly Header[]>, options: BraidMinerOptions) {
    this.network = network
    this.#braid = braidOf(network, windows)
    this.#random = options.random
    this.#forkRate = options.forkRate
    // Drawn after the checks so that the sequence of draws depends on the seed alone.
    this.#pool = createAccountPool(this.#random)
  }

  /** Starts again from `windows` (as `loadWindows` reads them), after blocks were stored behind the miner's back (a reorg). */
  reset(windows: ReadonlyMap<number, readonly Header[]>): void {
    this.#braid = braidOf(this.network, windows)
  }

  /** Every chain of the braid, ascending. */
  chains(): number[] {
    return this.#braid.chains()
  }

  /** The chains that may grow now (never empty). */
  ready(): number[] {
    return this.#braid.advanceable()
  }

  /** The winning head of a chain. */
  head(chain: number): Header | undefined {
    return this.#braid.head(chain)
  }

  /**
   * Mines the next block of `chain` (which must be ready) and, with probability forkRate when
   * `allowFork`, a sibling. The sibling with the lower hash wins: it is what the store's cut picks
   * on equal weight, so neighbours name it and the next block of this chain extends it; the other
   * becomes an orphan. Returns the blocks in the order mined. A block the network's opening holds
   * (recap-development's first heights) is taken from it instead, without a sibling.
   */
  mine(chain: number, allowFork = true): Block[] {
    const adjacents = this.#braid.nextAdjacents(chain)
    const parent = this.#braid.head(chain)
    if (adjacents === undefined || parent === undefined) {
      throw new ChainNotReadyError(
        chain,
        `Expected a chain that may grow, received chain ${chain}: ${parent === undefined ? 'the braid does not know it' : 'a neighbour is behind it'}`,
      )
    }
    const opening = openingBlock(this.network, parent)
    if (opening !== undefined) {
      this.#braid.advance(opening.header)
      return [opening]
    }
    const adjacentParents = adjacents.map(([, b]) => b)
    const blocks = [this.#mineOne(parent, adjacentParents)]
    if (allowFork && this.#random.chance(this.#forkRate)) blocks.push(this.#mineOne(parent, adjacentParents))
    let winner = blocks[0]!
    for (const block of blocks) if (Buffer.compare(block.header.hash, winner.header.hash) < 0) winner = block
    this.#braid.advance(winner.header)
    return blocks
  }

  #mineOne(parent: Header, adjacentParents: readonly Header[]): Block {
    return mineChild(this.network, { random: this.#random, pool: this.#pool }, parent, adjacentParents)
  }
}

/** What mining a block draws from: the seeded random source and the accounts of its payloads. */
export interface MiningDraws {
  readonly random: Random
  readonly pool: AccountPool
}

/**
 * Mines a child of `parent` naming `adjacentParents`, as the devnet mines every block: its payload,
 * creation time (`childCreationTime`, unless given) and feature flags by the devnet's rules, target
 * and epoch start by the network's. TARGET_TOO_HARD (`mineBlock`) when that target is too hard for a CPU.
 */
export function mineChild(
  network: Network,
  draws: MiningDraws,
  parent: Header,
  adjacentParents: readonly Header[],
  creationTime = childCreationTime(network, parent, Math.max(parent.creationTime, ...adjacentParents.map((a) => a.creationTime))),
): Block {
  const { random, pool } = draws
  const payload = syntheticPayload(random, pool, {
    network: network.name,
    chainId: parent.chainId,
    height: parent.height + 1,
    parent: parent.hash,
    creationTime,
  })
  const featureFlags = childFeatureFlags(network, parent, adjacentParents, random)
  return mineBlock({ parent, adjacentParents, payload, creationTime, featureFlags, nonce: random.bytes(8).readBigUInt64LE() })
}

// The braid of `network` over `windows`: adjacents by the real node's rule, transitions enforced.
function braidOf(network: Network, windows: ReadonlyMap<number, readonly Header[]>): Braid<Header> {
  // A chain of the cut whose next block keeps its head's target (not across an epoch start, nor
  // from the opening) is checked now, so that a network too hard to mine fails at once.
  const heads = new Map([...windows].map(([chain, window]) => [chain, window[window.length - 1]!]))
  for (const chain of cutChains(network, new Map([...heads].map(([c, head]) => [c, head.height])))) {
    const head = heads.get(chain)!
    if (!isLastInEpoch(network.rules, head.height) && openingBlock(network, head) === undefined) checkMinable(chain, head.target)
  }
  const transitions: BraidTransition[] = network.graphs.slice(0, -1).map(({ height }, index) => ({
    height,
    chains: [...network.graphs[index + 1]!.graph.keys()],
  }))
  return new Braid<Header>((chain, height) => blockAdjacentChains(network, chain, height), windows, WINDOW, transitions)
}

/** Each chain's best head in the store (chains not yet in the cut included) and the few winning ancestors below it, oldest first. */
export async function loadWindows(store: ChainStore): Promise<Map<number, Header[]>> {
  const windows = new Map<number, Header[]>()
  for (const [chain, head] of store.heads()) {
    const window = [head]
    while (window.length < WINDOW) {
      const parent = await store.getHeader(window[0]!.parent)
      if (parent === undefined) break // below genesis
      window.unshift(parent)
    }
    windows.set(chain, window)
  }
  return windows
}
