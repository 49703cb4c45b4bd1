import type { ChainStore } from '@weft/store'

/** Why a wait ended: a block joined the chain's winning branch, the time ran out, or the node is closing. */
export type WaitEnd = 'block' | 'timeout' | 'closed'

interface Waiter {
  readonly chain: number
  readonly settle: (end: WaitEnd) => void
}

/**
 * Waits for blocks to join a chain's winning branch (the store's cut events), for `/listen`: one
 * subscription to the store for every waiting request, ended at shutdown so no wait outlives the node.
 */
export class BlockWaits {
  readonly #waiters = new Set<Waiter>()
  readonly #unsubscribe: () => void
  #closed = false

  constructor(store: Pick<ChainStore, 'subscribe'>) {
    this.#unsubscribe = store.subscribe((event) => {
      if (event.type !== 'cut') return
      const chains = new Set(event.joined.map((block) => block.header.chainId))
      for (const waiter of [...this.#waiters]) if (chains.has(waiter.chain)) waiter.settle('block')
    })
  }

  /** Waiting requests. */
  get size(): number {
    return this.#waiters.size
  }

  /** Resolves once a block joins `chain`'s winning branch, `ms` milliseconds pass, or the node closes. */
  next(chain: number, ms: number): Promise<WaitEnd> {
    if (this.#closed || ms <= 0) return Promise.resolve(this.#closed ? 'closed' : 'timeout')
    return new Promise((resolve) => {
      const waiter: Waiter = {
        chain,
        settle: (end) => {
          clearTimeout(timer)
          this.#waiters.delete(waiter)
          resolve(end)
        },
      }
      const timer = setTimeout(() => waiter.settle('timeout'), ms)
      this.#waiters.add(waiter)
    })
  }

  /** Ends every wait (`closed`) and stops listening to the store. */
  close(): void {
    this.#closed = true
    this.#unsubscribe()
    for (const waiter of [...this.#waiters]) waiter.settle('closed')
  }
}
