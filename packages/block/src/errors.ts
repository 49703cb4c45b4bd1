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

/** Bytes or a JSON value cannot be decoded as (or a value cannot be encoded to) the wire format. */
export class InvalidEncodingError extends BlockModelError {
  constructor(message: string, options?: ErrorOptions) {
    super('INVALID_ENCODING', message, options)
  }
}

/** A network name or version code that Weft does not know. */
export class UnknownNetworkError extends BlockModelError {
  constructor(received: string, options?: ErrorOptions) {
    super('UNKNOWN_NETWORK', `Expected one of mainnet01, testnet04, development, test-singleton, received ${received}`, options)
  }
}

/** A chain id that the network never has. */
export class UnknownChainError extends BlockModelError {
  constructor(network: string, chain: number, options?: ErrorOptions) {
    super('UNKNOWN_CHAIN', `Network ${network} has no chain ${chain}`, options)
  }
}

/** Codes of the ways a block can be invalid. */
export type BlockViolationCode =
  | 'INVALID_BLOCK_HASH'
  | 'INVALID_PAYLOAD_HASH'
  | 'INVALID_POW'
  | 'INVALID_WEIGHT'
  | 'INVALID_HEIGHT'
  | 'INVALID_CHAIN'
  | 'INVALID_VERSION'
  | 'INVALID_ADJACENTS'
  | 'INVALID_CREATION_TIME'
  | 'INVALID_PARENT'
  | 'INVALID_GENESIS'

/** One way in which a block is invalid; validateBlock returns every one it finds. */
export class BlockValidationError extends BlockModelError {
  declare readonly code: BlockViolationCode
  constructor(code: BlockViolationCode, message: string, options?: ErrorOptions) {
    super(code, message, options)
  }
}
