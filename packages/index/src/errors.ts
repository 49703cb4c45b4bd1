import { WeftError } from '@weft/errors'

/** Base class of every error of @weft/index: `code` is stable and documented in the README. */
export abstract class IndexError extends WeftError {}

/** A block given to `deriveEntries` names its chain, height or hash in a form no index key can hold. */
export class InvalidBlockRefError extends IndexError {
  static override readonly codes = ['INVALID_BLOCK_REF'] as const
  constructor(message: string, options?: ErrorOptions) {
    super('INVALID_BLOCK_REF', message, options)
  }
}

/** A key or value handed to a decoder is not one this package wrote. */
export class InvalidIndexKeyError extends IndexError {
  static override readonly codes = ['INVALID_INDEX_KEY'] as const
  constructor(message: string, options?: ErrorOptions) {
    super('INVALID_INDEX_KEY', message, options)
  }
}

/** A range query names something no index entry can match (a malformed request key, a negative height), or a cursor outside its range. */
export class InvalidIndexQueryError extends IndexError {
  static override readonly codes = ['INVALID_INDEX_QUERY', 'CURSOR_OUT_OF_RANGE'] as const
  constructor(code: 'INVALID_INDEX_QUERY' | 'CURSOR_OUT_OF_RANGE', message: string, options?: ErrorOptions) {
    super(code, message, options)
  }
}
