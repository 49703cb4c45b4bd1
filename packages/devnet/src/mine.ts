import { type Block, type Header, mineChildHeader } from '@weft/block'
import { decodeHash } from '@weft/hash-text'
import type { PayloadWithOutputs } from '@weft/types'

/** What a new block is made of; everything else follows from its parent. */
export interface MineBlockInput {
  readonly parent: Header
  /** The neighbours' blocks at the parent's height, by ascending chain id. */
  readonly adjacents: ReadonlyArray<readonly [chainId: number, hash: Buffer]>
  readonly payload: PayloadWithOutputs
  /** Microseconds; must be after the parent's. */
  readonly creationTime: number
  /** The first nonce tried (u64); later ones count up from it. */
  readonly nonce?: bigint
  /** Default: the parent's. */
  readonly target?: bigint
  /** u64; default 0. */
  readonly featureFlags?: bigint
}

const U64 = 1n << 64n

/**
 * Mines the child of `parent`: the target given (default the parent's), weight + difficulty, same epoch
 * start, the feature flags given (default 0), and the first nonce from `nonce` on whose proof-of-work
 * hash is at most the target.
 */
export function mineBlock(input: MineBlockInput): Block {
  const header = mineChildHeader(input.parent, {
    nonce: (input.nonce ?? 0n) % U64,
    creationTime: input.creationTime,
    adjacents: input.adjacents,
    payloadHash: decodeHash(input.payload.payloadHash),
    ...(input.target === undefined ? {} : { target: input.target }),
    ...(input.featureFlags === undefined ? {} : { featureFlags: input.featureFlags }),
  })
  return { header, payload: input.payload }
}
