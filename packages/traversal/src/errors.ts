import { WeftError } from '@weft/errors'
import { encodeHash } from '@weft/hash-text'

/** Base class of every error of @weft/traversal: `code` is stable and documented in the README. */
export abstract class TraversalError extends WeftError {}

/** An upper bound of a branch query is not a known block of the queried chain. */
export class UnknownBoundError extends TraversalError {
  static override readonly codes = ['BLOCK_NOT_FOUND'] as const
  /** The bound's 32 bytes as given. */
  readonly hash: Buffer
  constructor(hash: Uint8Array, chain: number, options?: ErrorOptions) {
    const bytes = Buffer.from(hash)
    super('BLOCK_NOT_FOUND', `Expected the upper bound ${encodeHash(bytes)} to be a block of chain ${chain}, found none`, options)
    this.hash = bytes
  }
}

/** A branch query names more distinct upper (or lower) bounds than allowed. */
export class TooManyBoundsError extends TraversalError {
  static override readonly codes = ['TOO_MANY_BOUNDS'] as const
  readonly side: 'upper' | 'lower'
  readonly count: number
  readonly max: number
  constructor(side: 'upper' | 'lower', count: number, max: number, options?: ErrorOptions) {
    super('TOO_MANY_BOUNDS', `Expected at most ${max} distinct ${side} bounds, received ${count}`, options)
    this.side = side
    this.count = count
    this.max = max
  }
}

/** A header source answered something no block store can: a batch of the wrong length, or a parent not below its child. */
export class InconsistentSourceError extends TraversalError {
  static override readonly codes = ['INCONSISTENT_SOURCE'] as const
  constructor(message: string, options?: ErrorOptions) {
    super('INCONSISTENT_SOURCE', message, options)
  }
}
