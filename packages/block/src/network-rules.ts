import type { NetworkName } from '@weft/types'

/**
 * Where a rule change applies, as release 3.2's `ForkHeight`: from a block height on, from
 * genesis on (`'genesis'`), or not at all (`'never'`).
 */
export type ForkHeight = number | 'genesis' | 'never'

/**
 * The header rules of a network that change with the height, and their constants: the data of
 * release 3.2's `Chainweb.Version.*` modules that block-header validation reads.
 */
export interface NetworkRules {
  /** Blocks per difficulty-adjustment epoch (`_versionWindow`); the first epoch adjusts every tenth of it. */
  readonly epochBlocks: number
  /** Emergency ("slow epoch") adjustments happen below this parent height (`SlowEpoch`). */
  readonly slowEpoch: ForkHeight
  /** Below this parent height, the target and epoch start use the new block's own creation time (`OldTargetGuard`). */
  readonly oldTarget: ForkHeight
  /** Below this height the feature flags (fork number and votes) are not checked (`SkipFeatureFlagValidation`). */
  readonly skipFeatureFlagValidation: ForkHeight
  /** Below this height the difficulty adjustment is the single-chain legacy one, and creation times are checked against the parent only (`OldDAGuard`). */
  readonly oldDifficultyAdjustment: ForkHeight
  /** Whether the epoch start of height 2 is the creation time of height 1 (`fakeFirstEpochStart`, development networks). */
  readonly fakeFirstEpochStart: boolean
  /** The highest fork number the rules know (`_versionForkNumber`): a block signalling a higher one is refused. */
  readonly forkNumber: number
  /** Blocks of a fork epoch in which votes are cast (`_versionForkVoteCastingLength`); 120 counting blocks follow. */
  readonly forkVoteCastingBlocks: number
}

// Every network of release 3.2 votes for 120 x 119 blocks, then counts for 120: 5 days at 30 s.
const castingBlocks = 120 * 119

/**
 * The rules of each network. mainnet01, testnet06, testnet04 and recap-development are release
 * 3.2's (`src/Chainweb/Version/{Mainnet,Testnet06,Testnet04,RecapDevelopment}.hs`). development is
 * release 3.2's `Development.hs` (every change from genesis, the first epoch start faked), except
 * that Weft keeps proof of work, which that version switches off: Weft's development network has
 * genesis blocks of its own, at an easy target, and its devnet mines them. test-singleton, a Weft
 * network, follows development.
 */
const rules: Record<NetworkName, NetworkRules> = {
  mainnet01: {
    epochBlocks: 120,
    slowEpoch: 80_000,
    oldTarget: 452_820,
    skipFeatureFlagValidation: 530_500,
    oldDifficultyAdjustment: 771_414,
    fakeFirstEpochStart: false,
    // The community edition votes for fork 1 (Chainweb32 activates at fork number 1).
    forkNumber: 1,
    forkVoteCastingBlocks: castingBlocks,
  },
  testnet06: {
    epochBlocks: 120,
    slowEpoch: 0,
    oldTarget: 0,
    skipFeatureFlagValidation: 0,
    oldDifficultyAdjustment: 13,
    fakeFirstEpochStart: false,
    forkNumber: 1,
    forkVoteCastingBlocks: castingBlocks,
  },
  testnet04: {
    epochBlocks: 120,
    slowEpoch: 'genesis',
    oldTarget: 0,
    skipFeatureFlagValidation: 0,
    oldDifficultyAdjustment: 318_204,
    fakeFirstEpochStart: false,
    forkNumber: 0,
    forkVoteCastingBlocks: castingBlocks,
  },
  'recap-development': {
    epochBlocks: 120,
    slowEpoch: 0,
    oldTarget: 0,
    skipFeatureFlagValidation: 0,
    oldDifficultyAdjustment: 13,
    fakeFirstEpochStart: true,
    forkNumber: 0,
    forkVoteCastingBlocks: castingBlocks,
  },
  development: {
    epochBlocks: 120,
    slowEpoch: 'genesis',
    oldTarget: 'genesis',
    skipFeatureFlagValidation: 'genesis',
    oldDifficultyAdjustment: 'genesis',
    fakeFirstEpochStart: true,
    forkNumber: 1,
    forkVoteCastingBlocks: castingBlocks,
  },
  'test-singleton': {
    epochBlocks: 120,
    slowEpoch: 'genesis',
    oldTarget: 'genesis',
    skipFeatureFlagValidation: 'genesis',
    oldDifficultyAdjustment: 'genesis',
    fakeFirstEpochStart: true,
    forkNumber: 1,
    forkVoteCastingBlocks: castingBlocks,
  },
}
for (const r of Object.values(rules)) Object.freeze(r)

/** The header rules of the network of that name. */
export function networkRules(name: NetworkName): NetworkRules {
  return rules[name]
}

/** Whether `height` lies below `fork` (release 3.2's `before`: never below genesis, always below `'never'`). */
export function isBefore(height: number, fork: ForkHeight): boolean {
  if (fork === 'genesis') return false
  if (fork === 'never') return true
  return height < fork
}
