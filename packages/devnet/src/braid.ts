import { ChainNotReadyError } from './errors.js'

/** What the braid needs to know of a block. */
export interface BraidBlock {
  readonly chainId: number
  readonly height: number
  readonly hash: Uint8Array
}

/** The chains a block at `height` on `chain` names in its adjacents; undefined when the chain has no block at that height. */
export type NeighboursAt = (chain: number, height: number) => readonly number[] | undefined

/** A graph transition as the braid enforces it: no block above `height` until every one of `chains` has reached it. */
export interface BraidTransition {
  readonly height: number
  /** The chains of the graph in force below the transition. */
  readonly chains: readonly number[]
}

/**
 * The recent winning blocks of every chain and the braiding rule over them: a chain may grow to
 * height h only when each chain its block at h names (`neighboursAt`: the real node's rule is the
 * graph at the parent's height) has a winning block at h-1, and, at a graph transition, not past the
 * transition height before every chain of the old graph has reached it (as the real node).
 * Only a few blocks per chain are kept, because a neighbour is never more than one height ahead.
 */
export class Braid<B extends BraidBlock> {
  readonly #neighboursAt: NeighboursAt
  readonly #transitions: readonly BraidTransition[]
  readonly #windows = new Map<number, B[]>()
  readonly #windowSize: number

  /** `heads` are each chain's recent winning blocks, oldest first and contiguous in height. */
  constructor(
    neighboursAt: NeighboursAt,
    heads: ReadonlyMap<number, readonly B[]>,
    windowSize = 4,
    transitions: readonly BraidTransition[] = [],
  ) {
    this.#neighboursAt = neighboursAt
    this.#transitions = transitions
    this.#windowSize = Math.max(2, windowSize)
    for (const [chain, window] of heads) {
      if (window.length === 0) continue
      this.#windows.set(chain, window.slice(-this.#windowSize))
    }
  }

  /** The chains the braid knows, ascending. */
  chains(): number[] {
    return [...this.#windows.keys()].sort((a, b) => a - b)
  }

  /** The winning head of a chain, or undefined for a chain the braid does not know. */
  head(chain: number): B | undefined {
    const window = this.#windows.get(chain)
    return window?.[window.length - 1]
  }

  /** The winning block of `chain` at `height`, if it is still within the window. */
  winnerAt(chain: number, height: number): B | undefined {
    const window = this.#windows.get(chain)
    const first = window?.[0]
    if (window === undefined || first === undefined) return undefined
    return window[height - first.height]
  }

  /** The neighbours a block at `height` on `chain` must name, ascending ([] for a chain that has no block there). */
  neighbours(chain: number, height: number): number[] {
    return [...(this.#neighboursAt(chain, height) ?? [])].sort((a, b) => a - b)
  }

  /** The adjacent blocks the next block of `chain` names, by ascending chain id; undefined when it may not grow yet. */
  nextAdjacents(chain: number): Array<readonly [number, B]> | undefined {
    const head = this.head(chain)
    if (head === undefined) return undefined
    const height = head.height + 1
    if (this.#neighboursAt(chain, height) === undefined || !this.#pastTransitions(height)) return undefined
    const adjacents: Array<readonly [number, B]> = []
    for (const neighbour of this.neighbours(chain, height)) {
      const winner = this.winnerAt(neighbour, head.height)
      if (winner === undefined) return undefined
      adjacents.push([neighbour, winner])
    }
    return adjacents
  }

  // Whether a block at `height` passes no transition that some chain of the old graph has not reached.
  #pastTransitions(height: number): boolean {
    return this.#transitions.every(
      (transition) =>
        height <= transition.height || transition.chains.every((chain) => (this.head(chain)?.height ?? -1) >= transition.height),
    )
  }

  /** Whether `chain` may grow now. */
  canAdvance(chain: number): boolean {
    return this.nextAdjacents(chain) !== undefined
  }

  /** Every chain that may grow now, ascending (never empty while the braid is consistent: the lowest chain may always grow). */
  advanceable(): number[] {
    return this.chains().filter((chain) => this.canAdvance(chain))
  }

  /** Records `block` as the new winning head of its chain; it must be the child height of the current head. */
  advance(block: B): void {
    const window = this.#windows.get(block.chainId)
    const head = window?.[window.length - 1]
    if (window === undefined || head === undefined || block.height !== head.height + 1) {
      throw new ChainNotReadyError(
        block.chainId,
        `Expected a block at height ${head === undefined ? '?' : head.height + 1} on chain ${block.chainId}, received height ${block.height}`,
      )
    }
    window.push(block)
    if (window.length > this.#windowSize) window.shift()
  }
}
