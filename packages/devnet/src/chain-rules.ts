import { childForkState, difficulty, forkNumberOf, type Header, isBefore, type Network, networkOpening } from '@weft/block'
import type { NetworkName } from '@weft/types'
import { TargetTooHardError } from './errors.js'
import type { Random } from './random.js'

// A block whose target needs more hashes than this would take a tenth of a second or more on a CPU.
const MAX_DIFFICULTY = 1n << 16n

/**
 * The development networks the devnet produces on by default: development and test-singleton at
 * their easy genesis target, recap-development past its opening (`networkOpening`). Every other
 * network it mines only while its targets stay easy (mainnet01's and testnet04's chains 0-9 start
 * at difficulty 1; testnet06's at 100,000 are too hard).
 */
export const devnetNetworks: readonly NetworkName[] = Object.freeze(['development', 'recap-development', 'test-singleton'])

/** Throws TargetTooHardError unless the devnet can mine a block of `chainId` at `target`. */
export function checkMinable(chainId: number, target: bigint): void {
  const work = difficulty(target)
  if (work > MAX_DIFFICULTY) throw new TargetTooHardError(chainId, work, MAX_DIFFICULTY)
}

/** The network's opening block that is the next block after `parent`, if the opening holds one. */
export function openingBlock(network: Network, parent: Header): ReturnType<typeof networkOpening>[number] | undefined {
  const opening = networkOpening(network)
  if (opening.length === 0 || parent.height >= opening[opening.length - 1]!.header.height) return undefined
  return opening.find((block) => block.header.parent.equals(parent.hash))
}

/**
 * The creation time of a child of `parent` (µs): one block delay after it, every chain alike, so
 * that every epoch takes exactly its length in block delays and the difficulty adjustment gives
 * back the target it started from (two more delays at height 2 where the first epoch start is
 * faked, which otherwise shortens the first adjustment's epoch). Never at or before `floor`, the
 * latest creation time among the parent and adjacent parents.
 */
export function childCreationTime(network: Network, parent: Header, floor: number): number {
  const delay = network.blockDelay * 1_000_000
  const steps = network.rules.fakeFirstEpochStart && parent.height === 1 ? 3 : 1
  return Math.max(parent.creationTime + steps * delay, floor + 1)
}

/**
 * The feature flags of a child of `parent`: below the height from which the network checks them
 * (mainnet01's first 530,500 blocks), random bits, as the miners of that time wrote their nonce
 * there; from it on, release 3.2's fork state (`childForkState`), voting yes while the fork number
 * is below the one the network knows.
 */
export function childFeatureFlags(network: Network, parent: Header, adjacentParents: readonly Header[], random: Random): bigint {
  if (isBefore(parent.height + 1, network.rules.skipFeatureFlagValidation)) return random.bytes(8).readBigUInt64LE()
  return childForkState(parent, adjacentParents, forkNumberOf(parent.featureFlags) < network.rules.forkNumber)
}
