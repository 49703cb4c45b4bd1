/** Base class of every error of @weft/cursor: `code` is stable and documented in the README. */
export class CursorError extends Error {
  readonly code: string
  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = new.target.name
    this.code = code
  }
}

/** A cursor text is not `inclusive:<hash>` or `exclusive:<hash>`, or a cursor to format has no 32-byte hash. */
export class InvalidCursorError extends CursorError {
  constructor(message: string, options?: ErrorOptions) {
    super('INVALID_CURSOR', message, options)
  }
}

/** A page limit (or a limit cap) is not a non-negative safe integer. */
export class InvalidLimitError extends CursorError {
  constructor(what: string, received: unknown, options?: ErrorOptions) {
    super('INVALID_LIMIT', `Expected ${what} to be a non-negative integer, received ${String(received)}`, options)
  }
}
