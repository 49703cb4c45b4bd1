/** Runs async tasks one at a time in call order, so that concurrent writers never interleave. */
export class WriteQueue {
  #tail: Promise<unknown> = Promise.resolve()

  /** Runs `task` after every task enqueued before it has settled; resolves or rejects as it does. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task)
    // A failed task must not stop the ones queued after it.
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    )
    return result
  }

  /** Resolves once every task enqueued so far has settled. */
  drain(): Promise<void> {
    return this.#tail.then(() => undefined)
  }
}
