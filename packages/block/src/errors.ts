/** Base class of every error of @weft/block: `code` is stable and documented in the README. */
export class BlockModelError extends Error {
  readonly code: string
  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = new.target.name
    this.code = code
  }
}

/** A text that should be a block hash is not 43 characters of unpadded base64url (32 bytes). */
export class InvalidHashError extends BlockModelError {
  constructor(received: string, options?: ErrorOptions) {
    super('INVALID_HASH_TEXT', `Expected a block hash of 43 base64url characters (32 bytes), received ${JSON.stringify(received.length > 64 ? received.slice(0, 64) + '…' : received)}`, options)
  }
}
