import type { Header } from './header.js'
import type { NetworkRules } from './network-rules.js'
import { getNetwork } from './networks.js'

// Release 3.2's fork state (src/Chainweb/ForkState.hs): the feature-flags field holds a fork number
// in its low 32 bits and fork votes in its high 32 bits. Fork numbers and votes are Word32s there,
// so their arithmetic wraps at 2^32 here too.

const U32 = 0x1_0000_0000

/** What a yes vote adds to the votes (`voteStep`): votes are counted in thousandths of a block. */
export const VOTE_STEP = 1000
/** Blocks at the end of a fork epoch in which votes are counted, not cast (`voteCountLength`). */
export const VOTE_COUNT_BLOCKS = 120

/** The fork number of a feature-flags value: its low 32 bits. */
export function forkNumberOf(featureFlags: bigint): number {
  return Number(featureFlags & 0xffffffffn)
}

/** The fork votes of a feature-flags value: its high 32 bits. */
export function forkVotesOf(featureFlags: bigint): number {
  return Number((featureFlags >> 32n) & 0xffffffffn)
}

/** The feature-flags value of a fork number and fork votes (each a u32). */
export function forkState(forkNumber: number, votes: number): bigint {
  return (BigInt(votes >>> 0) << 32n) | BigInt(forkNumber >>> 0)
}

/** Blocks per fork epoch: the casting blocks and the counting blocks. */
export function forkEpochBlocks(rules: NetworkRules): number {
  return rules.forkVoteCastingBlocks + VOTE_COUNT_BLOCKS
}

/** Whether a block at `height` starts a fork epoch: its votes start again (0, or one yes vote). */
export function isForkEpochStart(rules: NetworkRules, height: number): boolean {
  return height % forkEpochBlocks(rules) === 0
}

/** Whether a block at `height` casts a vote (otherwise, it counts them). */
export function isForkVoteBlock(rules: NetworkRules, height: number): boolean {
  return height % forkEpochBlocks(rules) < rules.forkVoteCastingBlocks
}

/** `votes` plus one yes vote, modulo 2^32. */
export function addVote(votes: number): number {
  return (votes + VOTE_STEP) % U32
}

/** A counting block's votes (`countVotes`): the sum of its parent's and adjacent parents' votes (modulo 2^32), divided by their number, rounded down. */
export function countVotes(votes: readonly number[]): number {
  let sum = 0
  for (const v of votes) sum = (sum + v) % U32
  return Math.floor(sum / votes.length)
}

// Haskell's `round`: to the nearest integer, halves to the even one.
function roundHalfEven(numerator: number, denominator: number): number {
  const floor = Math.floor(numerator / denominator)
  const twice = 2 * (numerator - floor * denominator)
  if (twice > denominator || (twice === denominator && floor % 2 === 1)) return floor + 1
  return floor
}

/** Whether `votes` at the end of a fork epoch carry the next fork (`decideVotes`): yes votes of at least two thirds of the casting blocks. */
export function decideVotes(rules: NetworkRules, votes: number): boolean {
  return roundHalfEven(votes, VOTE_STEP) * 3 >= rules.forkVoteCastingBlocks * 2
}

/**
 * The feature flags of a child of `parent` (`newForkState`), with `adjacentParents` the blocks it
 * names, voting yes when `vote`: at a fork epoch start the fork number moves on when the parent's
 * votes decide it and the votes start again; while votes are cast, the parent's plus the child's;
 * while they are counted, the average of the parent's and the adjacent parents'.
 */
export function childForkState(parent: Header, adjacentParents: readonly Header[], vote: boolean): bigint {
  const { rules } = getNetwork(parent.version)
  const height = parent.height + 1
  const number = forkNumberOf(parent.featureFlags)
  const votes = forkVotesOf(parent.featureFlags)
  if (isForkEpochStart(rules, height)) {
    return forkState(decideVotes(rules, votes) ? (number + 1) % U32 : number, vote ? addVote(0) : 0)
  }
  if (isForkVoteBlock(rules, height)) return forkState(number, vote ? addVote(votes) : votes)
  return forkState(number, countVotes([votes, ...adjacentParents.map((a) => forkVotesOf(a.featureFlags))]))
}
