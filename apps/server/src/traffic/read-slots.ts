import type { Context, Middleware } from 'koa'
import { clientGone } from '../http/error-mapping.js'

/**
 * At most `slots` chain reads run at once; the others wait in arrival order. A hundred reads running
 * together filled the event loop and classic-level's four threads with their steps, so that a
 * write (the devnet producer's, ingest's) waited behind all of them at every step: the producer fell
 * from about 900 to 60 blocks a second. With a few slots a write waits behind a few reads, the
 * reads lose little (the CPU is as busy), and their pages in construction, the memory, are bounded.
 */
export class ReadSlots {
  #free: number
  readonly #waiting: Array<() => void> = []

  constructor(slots: number) {
    this.#free = slots
  }

  /** Reads waiting for a slot. */
  get waiting(): number {
    return this.#waiting.length
  }

  /** The middleware that holds the requests `gated` picks until a slot is free; a client that left meanwhile is not served. */
  middleware(gated: (ctx: Context) => boolean): Middleware {
    return async (ctx, next) => {
      if (!gated(ctx)) return next()
      if (this.#free > 0) this.#free -= 1
      else await new Promise<void>((resolve) => this.#waiting.push(resolve))
      try {
        if (clientGone(ctx)) {
          ctx.respond = false
          return
        }
        await next()
      } finally {
        // The slot passes straight to the next waiter, so that no newcomer overtakes it.
        const wake = this.#waiting.shift()
        if (wake === undefined) this.#free += 1
        else wake()
      }
    }
  }
}
