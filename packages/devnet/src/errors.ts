import { WeftError } from '@weft/errors'

/** Base class of every error of @weft/devnet: `code` is stable and documented in the README. */
export abstract class DevnetError extends WeftError {}

/** An option given to `fill`, `createProducer` or `reorg` is out of range or malformed. */
export class InvalidDevnetOptionError extends DevnetError {
  static override readonly codes = ['INVALID_OPTION'] as const
  readonly option: string
  constructor(option: string, expected: string, received: unknown, options?: ErrorOptions) {
    super('INVALID_OPTION', `Expected ${option} to be ${expected}, received ${describe(received)}`, options)
    this.option = option
  }
}

/** The chain's target is too hard to mine on a CPU in reasonable time (e.g. the real networks). */
export class TargetTooHardError extends DevnetError {
  static override readonly codes = ['TARGET_TOO_HARD'] as const
  readonly chainId: number
  constructor(chainId: number, difficulty: bigint, limit: bigint, options?: ErrorOptions) {
    super(
      'TARGET_TOO_HARD',
      `Expected the target of chain ${chainId} to need at most ${limit} hashes per block, received a difficulty of ${difficulty}`,
      options,
    )
    this.chainId = chainId
  }
}

/** A block was asked of a chain the braiding rule does not let grow yet (a neighbour is behind it). */
export class ChainNotReadyError extends DevnetError {
  static override readonly codes = ['CHAIN_NOT_READY'] as const
  readonly chainId: number
  constructor(chainId: number, message: string, options?: ErrorOptions) {
    super('CHAIN_NOT_READY', message, options)
    this.chainId = chainId
  }
}

/** No block of a reorg's branch head had a hash below the old head's in the tries allowed (one reorg in tens of thousands). */
export class ReorgNotFoundError extends DevnetError {
  static override readonly codes = ['REORG_NOT_FOUND'] as const
  readonly chainId: number
  constructor(chainId: number, oldHead: Buffer, options?: ErrorOptions) {
    super(
      'REORG_NOT_FOUND',
      `Expected a new head of chain ${chainId} with a hash below the old head's ${oldHead.toString('base64url')}, received none in 65,536 tries: try another seed`,
      options,
    )
    this.chainId = chainId
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value)
  return String(value)
}
