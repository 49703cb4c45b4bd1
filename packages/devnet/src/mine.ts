import { type Block, childHeader, type Header, mineHeader } from '@weft/block'
import { decodeHash } from '@weft/hash-text'
import type { PayloadWithOutputs } from '@weft/types'
import { checkMinable } from './chain-rules.js'

/** What a new block is made of; everything else follows from its parent and the network's rules. */
export interface MineBlockInput {
  readonly parent: Header
  /** The neighbours' blocks at the parent's height (the rules read them: the target, creation time and fork votes). */
  readonly adjacentParents: readonly Header[]
  readonly payload: PayloadWithOutputs
  /** Microseconds; must be after the parent's and the adjacent parents'. */
  readonly creationTime: number
  /** The first nonce tried (u64); later ones count up from it. */
  readonly nonce?: bigint
  /** u64; default: what the rules give (`childForkState` of @weft/block). */
  readonly featureFlags?: bigint
}

const U64 = 1n << 64n

/**
 * Mines the child of `parent`: the target and epoch start the network's rules give it, weight +
 * difficulty, the feature flags given (default the rules' fork state), and the first nonce from
 * `nonce` on whose proof-of-work hash is at most the target. TARGET_TOO_HARD when that target needs
 * more hashes than a CPU gives a block in a tenth of a second (a chain that joins later, as
 * mainnet01's 10-19, or one an adjustment made harder).
 */
export function mineBlock(input: MineBlockInput): Block {
  const header = childHeader(input.parent, {
    nonce: (input.nonce ?? 0n) % U64,
    creationTime: input.creationTime,
    adjacentParents: input.adjacentParents,
    payloadHash: decodeHash(input.payload.payloadHash),
    ...(input.featureFlags === undefined ? {} : { featureFlags: input.featureFlags }),
  })
  checkMinable(header.chainId, header.target)
  return { header: mineHeader(header), payload: input.payload }
}
