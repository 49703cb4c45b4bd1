import type { IndexState } from './index-state.js'

/**
 * The index state of an open store, in memory: the batch writer asks it whether blocks are written
 * with their entries, the catch-up moves it on, the index reads ask it how far the index is complete.
 */
export class IndexKeeper {
  #state: IndexState

  constructor(state: IndexState) {
    this.#state = state
  }

  get state(): IndexState {
    return this.#state
  }

  /** Whether blocks are written with their index entries: always, unless the store keeps no index. */
  get writes(): boolean {
    return this.#state.state !== 'disabled'
  }

  /** The lowest height from which `chain`'s blocks all have their entries: 0 when complete, Infinity when disabled. */
  completeFrom(chain: number): number {
    const state = this.#state
    if (state.state === 'complete') return 0
    if (state.state === 'disabled') return Number.POSITIVE_INFINITY
    return state.below.get(chain) ?? 0
  }

  /** Moves to `state` once the batch that records it is written. */
  move(state: IndexState): void {
    this.#state = state
  }
}
