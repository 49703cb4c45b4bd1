import { type Block, blockAdjacentChains, type Header, type Network } from '@weft/block'
import type { ChainStore } from '@weft/store'
import { Braid, type BraidTransition } from './braid.js'
import { checkMinable, childFeatureFlags, childTarget } from './chain-rules.js'
import { ChainNotReadyError } from './errors.js'
import { mineBlock } from './mine.js'
import { type AccountPool, createAccountPool, syntheticPayload } from './payload.js'
import type { Random } from './random.js'

/** Gives the creation time of the next block: strictly after `floor` (µs). */
export interface CreationClock {
  next(floor: number): number
}

/** How a BraidMiner mines. */
export interface BraidMinerOptions {
  readonly random: Random
  /** Probability in [0, 1] that a block gets a sibling that loses. */
  readonly forkRate: number
  readonly clock: CreationClock
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
  readonly #clock: CreationClock
  readonly #pool: AccountPool

  /** `windows`: each chain's recent winning headers, oldest first, the head last. */
  constructor(network: Network, windows: ReadonlyMap<number, readonly Header[]>, options: BraidMinerOptions) {
    this.network = network
    this.#braid = braidOf(network, windows)
    this.#random = options.random
    this.#forkRate = options.forkRate
    this.#clock = options.clock
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
   * becomes an orphan. Returns the blocks in the order mined.
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
    const floor = Math.max(parent.creationTime, ...adjacents.map(([, b]) => b.creationTime))
    const adjacentHashes = adjacents.map(([c, b]) => [c, b.hash] as const)
    const blocks = [this.#mineOne(parent, adjacentHashes, floor)]
    if (allowFork && this.#random.chance(this.#forkRate)) blocks.push(this.#mineOne(parent, adjacentHashes, floor))
    let winner = blocks[0]!
    for (const block of blocks) if (Buffer.compare(block.header.hash, winner.header.hash) < 0) winner = block
    this.#braid.advance(winner.header)
    return blocks
  }

  #mineOne(parent: Header, adjacents: ReadonlyArray<readonly [number, Buffer]>, floor: number): Block {
    return mineChild(this.network, { random: this.#random, pool: this.#pool }, parent, adjacents, this.#clock.next(floor))
  }
}

/** What mining a block draws from: the seeded random source and the accounts of its payloads. */
export interface MiningDraws {
  readonly random: Random
  readonly pool: AccountPool
}

/** Mines a child of `parent` naming `adjacents`, as the devnet mines every block: payload, target and feature flags by its rules. */
export function mineChild(
  network: Network,
  draws: MiningDraws,
  parent: Header,
  adjacents: ReadonlyArray<readonly [number, Buffer]>,
  creationTime: number,
  target: bigint = childTarget(network, parent),
): Block {
  const { random, pool } = draws
  const payload = syntheticPayload(random, pool, {
    network: network.name,
    chainId: parent.chainId,
    height: parent.height + 1,
    parent: parent.hash,
    creationTime,
  })
  const featureFlags = childFeatureFlags(network, parent, random)
  return mineBlock({ parent, adjacents, payload, creationTime, target, featureFlags, nonce: random.bytes(8).readBigUInt64LE() })
}

// The braid of `network` over `windows`: adjacents by the real node's rule, transitions enforced.
function braidOf(network: Network, windows: ReadonlyMap<number, readonly Header[]>): Braid<Header> {
  for (const window of windows.values()) {
    const head = window[window.length - 1]
    if (head !== undefined) checkMinable(network, head)
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

/** The latest creation time among the heads of `windows` (µs): where a clock resuming them starts. */
export function latestCreationTime(windows: ReadonlyMap<number, readonly Header[]>): number {
  let latest = -Infinity
  for (const window of windows.values()) latest = Math.max(latest, window[window.length - 1]?.creationTime ?? -Infinity)
  return latest
}
