import { MAX_U256 } from '@weft/hash-text'
import type { Header } from './header.js'
import { isBefore, type NetworkRules } from './network-rules.js'
import { genesisHeight, getNetwork, type Network } from './networks.js'

// Release 3.2's `powTarget` and `epochStart` (src/Chainweb/BlockHeader/Internal.hs) with `adjust`
// and `legacyAdjust` (src/Chainweb/Difficulty.hs), in exact integer arithmetic. A new block's
// target and epoch start follow from its parent, its adjacent parents and its own creation time;
// the rules are the parent's network's.

// ceiling(a / b) for b > 0, as Haskell's `ceiling` of a Rational (BigInt division truncates toward 0).
function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b
  return a % b > 0n ? q + 1n : q
}

// An Integer converted to a Word256, as Haskell's `fromInteger` does: modulo 2^256.
function word256(n: bigint): bigint {
  return BigInt.asUintN(256, n)
}

function microseconds(network: Network): bigint {
  return BigInt(network.blockDelay * 1_000_000)
}

/** The adjustment window in force after a block at `height`: a tenth of the epoch (at least 1) up to the epoch's length in blocks, the full epoch after. */
export function effectiveWindow(rules: NetworkRules, height: number): number {
  return height <= rules.epochBlocks ? Math.max(1, Math.floor(rules.epochBlocks / 10)) : rules.epochBlocks
}

/** Whether the block at `height` is the last of its epoch, so that its child starts a new one and adjusts the target. */
export function isLastInEpoch(rules: NetworkRules, height: number): boolean {
  return (height + 1) % effectiveWindow(rules, height) === 0
}

/**
 * `adjust`: the target that makes `window` blocks take `window` block delays, given that they took
 * `elapsed` microseconds at `target`: ceiling(elapsed * target / (window * delay)) as a Word256, so a
 * result past 2^256 - 1 wraps as the node's does (its `min maxTarget` comes after the conversion).
 */
export function adjustTarget(delayMicros: bigint, window: number, elapsed: bigint, target: bigint): bigint {
  return word256(ceilDiv(elapsed * target, BigInt(window) * delayMicros))
}

/**
 * `legacyAdjust`, the single-chain adjustment before OldDAGuard: the difficulty scaled by
 * window * delay / elapsed, rounded up, and the target 2^256 - 1 divided by it. Undefined where the
 * node's division fails (no time elapsed, a zero target or difficulty).
 */
export function legacyAdjustTarget(delayMicros: bigint, window: number, elapsed: bigint, target: bigint): bigint | undefined {
  const denominator = target * elapsed
  if (denominator === 0n) return undefined
  // ceiling of a negative rational taken as a Word256, as the node does (it only happens for malformed times)
  const difficulty = word256(
    denominator > 0n
      ? ceilDiv(MAX_U256 * delayMicros * BigInt(window), denominator)
      : -((MAX_U256 * delayMicros * BigInt(window)) / -denominator),
  )
  return difficulty === 0n ? undefined : MAX_U256 / difficulty
}

/**
 * The target a child of `parent` must carry (`powTarget`), created at `creationTime` (µs), with
 * `adjacentParents` the blocks its adjacents name. The parent's target within an epoch; at an
 * epoch start (and, before SlowEpoch, after an epoch five times too slow) the adjustment: before
 * OldDAGuard the parent's alone (`legacyAdjust`), after it the average over the parent and the
 * adjacent parents of each one's `adjust`. Undefined where the node's computation fails.
 */
export function expectedTarget(parent: Header, adjacentParents: readonly Header[], creationTime: number): bigint | undefined {
  const network = getNetwork(parent.version)
  const { rules } = network
  const window = effectiveWindow(rules, parent.height)
  const delay = microseconds(network)
  const slow = isBefore(parent.height, rules.slowEpoch) && BigInt(creationTime - parent.epochStart) > delay * BigInt(rules.epochBlocks) * 5n
  if (!slow && !isLastInEpoch(rules, parent.height)) return parent.target
  if (isBefore(parent.height + 1, rules.oldDifficultyAdjustment)) {
    const end = isBefore(parent.height, rules.oldTarget) ? creationTime : parent.creationTime
    return legacyAdjustTarget(delay, window, BigInt(end - parent.epochStart), parent.target)
  }
  let sum = 0n
  const all = [parent, ...adjacentParents]
  for (const a of all) sum += adjustTarget(delay, window, BigInt(a.creationTime - a.epochStart), a.target)
  return sum / BigInt(all.length)
}

/**
 * The epoch start a child of `parent` must carry (`epochStart`), created at `creationTime`: the
 * parent's creation time when the parent ends an epoch (before OldTargetGuard, the child's own
 * creation time), on a chain's first block after its genesis, and (development networks) at height
 * 2; the parent's epoch start otherwise.
 */
export function expectedEpochStart(parent: Header, creationTime: number): number {
  const network = getNetwork(parent.version)
  const { rules } = network
  if (rules.fakeFirstEpochStart && parent.height === 1) return parent.creationTime
  if (parent.height > 1 && parent.height === genesisHeightOf(network, parent.chainId) + 1) return parent.creationTime
  if (isLastInEpoch(rules, parent.height)) return isBefore(parent.height, rules.oldTarget) ? creationTime : parent.creationTime
  return parent.epochStart
}

// A chain's genesis height, or NaN for a chain the network never has (no height then equals it).
function genesisHeightOf(network: Network, chain: number): number {
  try {
    return genesisHeight(network, chain)
  } catch {
    return Number.NaN
  }
}
