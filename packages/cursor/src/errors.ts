import { WeftError } from '@weft/errors'

/** Base class of every error of @weft/cursor: `code` is stable and documented in the README. */
export abstract class CursorError extends WeftError {}

/** A cursor text is not `inclusive:<hash>` or `exclusive:<hash>`, or a cursor to format has no 32-byte hash. */
export class InvalidCursorError extends CursorError {
  static override readonly codes = ['INVALID_CURSOR'] as const
  constructor(message: string, options?: ErrorOptions) {
    super('INVALID_CURSOR', message, options)
  }
}

/** A page limit (or a limit cap) is not a non-negative safe integer. */
export class InvalidLimitError extends CursorError {
  static override readonly codes = ['INVALID_LIMIT'] as const
  constructor(what: string, received: unknown, options?: ErrorOptions) {
    super('INVALID_LIMIT', `Expected ${what} to be a non-negative integer, received ${String(received)}`, options)
  }
}
