import { type Block, difficulty, graphAt, type Header, type Network } from '@weft/block'
import type { ChainStore } from '@weft/store'
import { Braid } from './braid.js'
import { ChainNotReadyError, TargetTooHardError } from './errors.js'
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

// A block whose target needs more hashes than this would take seconds on a CPU.
const MAX_DIFFICULTY = 1n << 20n
// Neighbours are at most one height apart, so a few winners per chain are all the braid consults.
const WINDOW = 4

/**
 * Mines braided blocks on every chain, forks included, keeping only a small window of each
 * chain's recent winning headers in memory. It does not write: the caller stores what it returns.
 */
export class BraidMiner {
  readonly network: Network
  readonly #braid: Braid<Header>
  readonly #random: Random
  readonly #forkRate: number
  readonly #clock: CreationClock
  readonly #pool: AccountPool

  /** `windows`: each chain's recent winning headers, oldest first, the head last. */
  constructor(network: Network, windows: ReadonlyMap<number, readonly Header[]>, options: BraidMinerOptions) {
    this.network = network
    this.#braid = new Braid<Header>((height) => graphAt(network, height), windows, WINDOW)
    this.#random = options.random
    this.#forkRate = options.forkRate
    this.#clock = options.clock
    for (const chain of this.#braid.chains()) {
      const head = this.#braid.head(chain)!
      const work = difficulty(head.target)
      if (work > MAX_DIFFICULTY) throw new TargetTooHardError(chain, work, MAX_DIFFICULTY)
    }
    // Drawn after the checks so that the sequence of draws depends on the seed alone.
    this.#pool = createAccountPool(this.#random)
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
    const creationTime = this.#clock.next(floor)
    const payload = syntheticPayload(this.#random, this.#pool, {
      network: this.network.name,
      chainId: parent.chainId,
      height: parent.height + 1,
      parent: parent.hash,
      creationTime,
    })
    return mineBlock({ parent, adjacents, payload, creationTime, nonce: this.#random.bytes(8).readBigUInt64LE() })
  }
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
