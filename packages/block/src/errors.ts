import { WeftError } from '@weft/errors'

/** Base class of every error of @weft/block: `code` is stable and documented in the README. */
export abstract class BlockModelError extends WeftError {}

/** Bytes or a JSON value cannot be decoded as (or a value cannot be encoded to) the wire format. */
export class InvalidEncodingError extends BlockModelError {
  static override readonly codes = ['INVALID_ENCODING'] as const
  constructor(message: string, options?: ErrorOptions) {
    super('INVALID_ENCODING', message, options)
  }
}

/** A network name or version code that Weft does not know. */
export class UnknownNetworkError extends BlockModelError {
  static override readonly codes = ['UNKNOWN_NETWORK'] as const
  constructor(received: string, options?: ErrorOptions) {
    super(
      'UNKNOWN_NETWORK',
      `Expected a network Weft knows (mainnet01, testnet06, testnet04, recap-development, development, test-singleton), received ${received}`,
      options,
    )
  }
}

/** A chain id that the network never has. */
export class UnknownChainError extends BlockModelError {
  static override readonly codes = ['UNKNOWN_CHAIN'] as const
  constructor(network: string, chain: number, options?: ErrorOptions) {
    super('UNKNOWN_CHAIN', `Network ${network} has no chain ${chain}`, options)
  }
}

/**
 * Codes of the ways a block can be invalid: one per `ValidationFailureType` of chainweb-node
 * release 3.2 (the README maps them), and Weft's own (INVALID_GENESIS, INVALID_BRAIDING).
 */
export const blockViolationCodes = [
  'INVALID_BLOCK_HASH',
  'INVALID_PAYLOAD_HASH',
  'INVALID_POW',
  'INVALID_WEIGHT',
  'INVALID_HEIGHT',
  'INVALID_CHAIN',
  'INVALID_VERSION',
  'INVALID_ADJACENTS',
  'INVALID_CREATION_TIME',
  'BLOCK_IN_THE_FUTURE',
  'INVALID_TARGET',
  'INVALID_EPOCH_START',
  'INVALID_FORK_NUMBER',
  'UNKNOWN_FORK_NUMBER',
  'INVALID_FORK_VOTES',
  'INVALID_ADJACENT_PARENT',
  'INVALID_ADJACENT_VERSION',
  'INVALID_BRAIDING',
  'INVALID_GENESIS',
  'INVALID_GENESIS_TARGET',
  'MISSING_PARENT',
  'MISSING_ADJACENT_PARENT',
] as const

/** One of `blockViolationCodes`. */
export type BlockViolationCode = (typeof blockViolationCodes)[number]

/** One way in which a block is invalid; validateBlock returns every one it finds. */
export class BlockValidationError extends BlockModelError {
  static override readonly codes = blockViolationCodes
  declare readonly code: BlockViolationCode
  constructor(code: BlockViolationCode, message: string, options?: ErrorOptions) {
    super(code, message, options)
  }
}
