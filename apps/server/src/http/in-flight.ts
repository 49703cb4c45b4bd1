import type { Middleware } from 'koa'

/**
 * Counts the requests whose handlers are still running. A handler outlives its connection when the
 * client goes away or shutdown cuts it, so shutdown waits on this count, not on the connections,
 * before it closes the store under the handlers.
 */
export class InFlight {
  #count = 0
  #waiters: Array<() => void> = []

  /** Handlers running now. */
  get count(): number {
    return this.#count
  }

  /** The middleware that counts: first in the chain, so that it sees every handler to its end. */
  middleware(): Middleware {
    return async (_ctx, next) => {
      this.#count += 1
      try {
        await next()
      } finally {
        this.#count -= 1
        if (this.#count === 0) for (const wake of this.#waiters.splice(0)) wake()
      }
    }
  }

  /** Resolves true once no handler runs, or false when `timeoutMs` pass first. */
  idle(timeoutMs: number): Promise<boolean> {
    if (this.#count === 0) return Promise.resolve(true)
    return new Promise<boolean>((resolve) => {
      const wake = (): void => {
        clearTimeout(timer)
        resolve(true)
      }
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((waiter) => waiter !== wake)
        resolve(false)
      }, timeoutMs).unref()
      this.#waiters.push(wake)
    })
  }
}
