/**
 * The base class of every error a Weft package throws. `code` is a stable upper-case string that
 * callers branch on (it is documented in the owning package's README); the message says in words
 * what was expected and what was received; `cause` carries the error underneath, if any.
 *
 * A subclass lists the codes it may carry in its static `codes`, and the constructor refuses any
 * other: so every code has exactly one owning class, which a test across the packages checks.
 */
export class WeftError extends Error {
  /** The codes instances of this class carry; every code has one owning class. */
  static readonly codes: readonly string[] = []
  readonly code: string

  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options)
    const owner = new.target as typeof WeftError
    if (!owner.codes.includes(code)) {
      throw new TypeError(
        `Expected ${owner.name} to be thrown with one of its codes (${owner.codes.join(', ') || 'none'}), received ${code}`,
      )
    }
    this.name = owner.name
    this.code = code
  }
}

/** Whether `value` is an error of any Weft package. */
export function isWeftError(value: unknown): value is WeftError {
  return value instanceof WeftError
}

/** The stable code of a Weft error, or of any error object carrying a string `code`; else undefined. */
export function errorCode(value: unknown): string | undefined {
  const code = (value as { code?: unknown } | null | undefined)?.code
  return typeof code === 'string' ? code : undefined
}
