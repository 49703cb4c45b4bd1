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
