import { WeftError } from '@weft/errors'

/** A text that should be a block hash is not 43 characters of unpadded base64url (32 bytes). */
export class InvalidHashError extends WeftError {
  static override readonly codes = ['INVALID_HASH_TEXT'] as const
  constructor(received: string, options?: ErrorOptions) {
    super(
      'INVALID_HASH_TEXT',
      `Expected a block hash of 43 base64url characters (32 bytes), received ${JSON.stringify(received.length > 64 ? `${received.slice(0, 64)}…` : received)}`,
      options,
    )
  }
}

/** A number outside the u256 range, or bytes that are not the 32 of one. */
export class InvalidU256Error extends WeftError {
  static override readonly codes = ['INVALID_U256'] as const
  constructor(message: string, options?: ErrorOptions) {
    super('INVALID_U256', message, options)
  }
}
