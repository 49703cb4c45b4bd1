import { difficulty, EASY_TARGET, genesisHeight, type Header, type Network } from '@weft/block'
import type { NetworkName } from '@weft/types'
import { TargetTooHardError } from './errors.js'
import type { Random } from './random.js'

/** The fork number the devnet writes in the low 32 bits of featureFlags. */
export const DEVNET_FORK_NUMBER = 1n
/** What a yes vote adds to the vote count (the high 32 bits of featureFlags), as on release 3.2. */
export const VOTE_STEP = 1000n
/**
 * Lowest vote count of a chain's first block: just below 2^21, so that a few yes votes take featureFlags
 * (votes x 2^32 + fork number) above 2^53 within seconds of a fast devnet, and both sides of 2^53 are seen.
 */
export const VOTES_START = (1n << 21n) - 16n * VOTE_STEP

// A block whose target needs more hashes than this would take seconds on a CPU.
const MAX_DIFFICULTY = 1n << 20n
const MAX_VOTES = 0xffffffffn

/**
 * The development networks the devnet produces on: it mines their blocks after genesis at
 * EASY_TARGET (recap-development's real genesis targets are far too hard for a CPU; development's
 * and test-singleton's are EASY_TARGET). The real networks' blocks it does not make up.
 */
export const devnetNetworks: readonly NetworkName[] = Object.freeze(['development', 'recap-development', 'test-singleton'])
const easyNetworks: ReadonlySet<string> = new Set(devnetNetworks)
// Networks on which the devnet writes release-3.2-style featureFlags.
const flaggedNetworks: ReadonlySet<string> = new Set(['development', 'recap-development'])

/** Throws TargetTooHardError unless the devnet can mine children of `head`. */
export function checkMinable(network: Network, head: Header): void {
  if (easyNetworks.has(network.name)) return
  const work = difficulty(head.target)
  if (work > MAX_DIFFICULTY) throw new TargetTooHardError(head.chainId, work, MAX_DIFFICULTY)
}

/** The target of a child: EASY_TARGET on the devnet's networks, the parent's elsewhere. */
export function childTarget(network: Network, parent: Header): bigint {
  return easyNetworks.has(network.name) ? EASY_TARGET : parent.target
}

/**
 * The featureFlags of a child, release-3.2 style on development and recap-development (0 elsewhere): the
 * fork number in the low 32 bits, the votes in the high 32; a chain's first block after genesis starts at
 * VOTES_START plus a few steps, and each later block keeps its parent's votes or adds a yes vote.
 */
export function childFeatureFlags(network: Network, parent: Header, random: Random): bigint {
  if (!flaggedNetworks.has(network.name)) return 0n
  if (parent.height === genesisHeight(network, parent.chainId)) {
    return ((VOTES_START + BigInt(random.int(8)) * VOTE_STEP) << 32n) | DEVNET_FORK_NUMBER
  }
  const votes = parent.featureFlags >> 32n
  const fork = parent.featureFlags & 0xffffffffn
  const next = random.chance(0.5) && votes + VOTE_STEP <= MAX_VOTES ? votes + VOTE_STEP : votes
  return (next << 32n) | fork
}
