import { WeftError } from '@weft/errors'

/** Base class of the errors of @weft/client's own (the wire's failures are @weft/api's): `code` is stable and documented in the README. */
export abstract class WeftClientError extends WeftError {}

/** A reorganisation reached a header `confirmedHeaders` had already emitted: `depth` was too small. */
export class ReorgTooDeepError extends WeftClientError {
  static override readonly codes = ['REORG_TOO_DEEP'] as const
  readonly chain: number

  constructor(chain: number, depth: number, emittedHash: string) {
    super(
      'REORG_TOO_DEEP',
      `Expected the winning branch of chain ${chain} to contain ${emittedHash}, emitted as ${depth} blocks deep, but it no longer does; choose a larger depth`,
    )
    this.chain = chain
  }
}

/** An option out of its range, e.g. a negative `depth`. */
export class InvalidOptionError extends WeftClientError {
  static override readonly codes = ['INVALID_CLIENT_OPTION'] as const
  /** The option's name. */
  readonly option: string

  constructor(option: string, expected: string, received: unknown, options?: ErrorOptions) {
    super('INVALID_CLIENT_OPTION', `Expected ${option} to be ${expected}, received ${String(received)}`, options)
    this.option = option
  }
}
