/** Base of every error of the bench. */
export class BenchError extends Error {
  /** Stable code of the cause. */
  readonly code: string

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = new.target.name
    this.code = code
  }
}

/** A child process (server, floor, subscribers, fill) failed or exited early. */
export class ChildProcessError extends BenchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('CHILD_FAILED', message, options)
  }
}

/** The weft server and the floor server answered different bytes for the same request. */
export class BodyMismatchError extends BenchError {
  constructor(message: string) {
    super('BODY_MISMATCH', message)
  }
}

/** A request of a measured run failed or answered an unexpected status. */
export class RequestFailedError extends BenchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('REQUEST_FAILED', message, options)
  }
}

/** An engine of `pnpm bench:engines` read back a page other than the records it was given. */
export class PageMismatchError extends BenchError {
  constructor(message: string) {
    super('PAGE_MISMATCH', message)
  }
}

/** An engine's own statistics were not in the form the engine bench reads. */
export class EngineStatsError extends BenchError {
  constructor(message: string) {
    super('ENGINE_STATS_UNREADABLE', message)
  }
}

/** `pnpm bench:engines --engines` named an engine the bench does not know. */
export class UnknownEngineError extends BenchError {
  constructor(name: string, known: readonly string[]) {
    super('UNKNOWN_ENGINE', `Expected engines among ${known.join(', ')}, but got ${JSON.stringify(name)}`)
  }
}
