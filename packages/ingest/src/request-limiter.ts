/** Runs tasks with at most `slots` at a time, first come first served. */
export class RequestLimiter {
  readonly #slots: number
  #running = 0
  readonly #waiting: Array<() => void> = []

  constructor(slots: number) {
    this.#slots = slots
  }

  /** Runs `task` once a slot is free; the slot is freed when it settles. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#slots) await new Promise<void>((resolve) => this.#waiting.push(resolve))
    else this.#running += 1
    try {
      return await task()
    } finally {
      // The slot passes straight to the next waiter, so the count never drops below what runs.
      const next = this.#waiting.shift()
      if (next === undefined) this.#running -= 1
      else next()
    }
  }
}
