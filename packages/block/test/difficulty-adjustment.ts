import fc from 'fast-check'
import t from 'tap'
import {
  adjustTarget,
  difficulty,
  EASY_TARGET,
  effectiveWindow,
  expectedEpochStart,
  expectedTarget,
  genesisBlock,
  getNetwork,
  type Header,
  isLastInEpoch,
  legacyAdjustTarget,
  MAX_U256,
} from '../src/index.js'
import { holds } from './fixtures/helpers.js'

const mainnet = getNetwork('mainnet01')
const delay = 30_000_000n
const hour = 3_600_000_000

// A made-up mainnet header of chain 0 at `height`: the adjustment reads its target, creation time and epoch start.
const at = (height: number, change: Partial<Header> = {}): Header => ({
  ...genesisBlock(mainnet, 0).header,
  height,
  target: MAX_U256 >> 40n,
  epochStart: 1_000 * hour,
  creationTime: 1_001 * hour,
  ...change,
})

t.test('the first epoch adjusts every tenth of the window, then every window', async (t) => {
  const { rules } = mainnet
  t.same([effectiveWindow(rules, 0), effectiveWindow(rules, 120), effectiveWindow(rules, 121)], [12, 12, 120])
  const ends = Array.from({ length: 400 }, (_, h) => h).filter((h) => isLastInEpoch(rules, h))
  t.same(ends.slice(0, 11), [11, 23, 35, 47, 59, 71, 83, 95, 107, 119, 239])
  t.same(ends.slice(11), [359])
})

t.test('adjust scales the target by the time the epoch took over the time it should take, rounded up, as a Word256', async (t) => {
  t.equal(adjustTarget(delay, 120, 120n * delay, 1000n), 1000n, 'on time: unchanged')
  t.equal(adjustTarget(delay, 120, 240n * delay, 1000n), 2000n, 'twice as slow: twice the target')
  t.equal(adjustTarget(delay, 120, 1n, 1000n), 1n, 'rounded up')
  t.equal(adjustTarget(delay, 120, 240n * delay, MAX_U256), MAX_U256 - 1n, 'past 2^256 - 1 it wraps, as the node Word256 does')
  holds(
    t,
    fc.property(fc.bigInt({ min: 1n, max: MAX_U256 >> 40n }), fc.bigInt({ min: 1n, max: 10n ** 12n }), (target, elapsed) => {
      const adjusted = adjustTarget(delay, 120, elapsed, target)
      const exact = elapsed * target
      return adjusted * 120n * delay >= exact && (adjusted - 1n) * 120n * delay < exact
    }),
  )
})

t.test('the legacy adjustment scales the difficulty, rounded up, and fails where the node divides by zero', async (t) => {
  t.equal(legacyAdjustTarget(delay, 120, 120n * delay, MAX_U256 >> 8n), MAX_U256 / 257n, 'the difficulty 256.00... rounds up to 257')
  t.equal(legacyAdjustTarget(delay, 120, 240n * delay, MAX_U256 >> 8n), MAX_U256 / 129n)
  t.equal(legacyAdjustTarget(delay, 120, 0n, 100n), undefined, 'no time elapsed')
  t.equal(legacyAdjustTarget(delay, 120, 1n, 0n), undefined, 'a zero target')
  t.equal(legacyAdjustTarget(delay, 120, 10n ** 40n, MAX_U256), MAX_U256, 'a very slow epoch: difficulty 1')
  t.equal(legacyAdjustTarget(delay, 120, -1n, MAX_U256), MAX_U256 / ((1n << 256n) - 3_600_000_000n), 'a negative time wraps as a Word256')
  t.equal(legacyAdjustTarget(1n, 1, -2n, MAX_U256), undefined, 'a difficulty that rounds to 0 has no target')
})

t.test('within an epoch the target is the parent one; at an epoch start the adjustment of the era applies', async (t) => {
  const within = at(5_000_000)
  t.equal(expectedTarget(within, [], within.creationTime + 1), within.target)
  // Since OldDAGuard (771414): the average of the parent's and the adjacent parents' adjustments.
  const end = at(5_000_039, { creationTime: 1_000 * hour + 2 * hour }) // the epoch took 2 hours: twice as slow
  const neighbour = at(5_000_039, { chainId: 5, target: MAX_U256 >> 41n, creationTime: 1_000 * hour + hour })
  const adjusted = expectedTarget(end, [neighbour, neighbour], end.creationTime + 1)
  t.equal(adjusted, ((MAX_U256 >> 40n) * 2n + 2n * (MAX_U256 >> 41n)) / 3n)
  // Before OldDAGuard, after OldTargetGuard: the parent's alone, by its own creation time.
  const legacy = at(771_359, { creationTime: 1_000 * hour + 2 * hour })
  t.equal(
    expectedTarget(legacy, [neighbour], legacy.creationTime + 12 * hour),
    legacyAdjustTarget(delay, 120, 2n * BigInt(hour), legacy.target),
  )
  // Before OldTargetGuard (452820): by the new block's creation time.
  const old = at(452_759)
  t.equal(expectedTarget(old, [], old.epochStart + 3 * hour), legacyAdjustTarget(delay, 120, 3n * BigInt(hour), old.target))
  t.equal(
    expectedTarget(old, [], 0),
    legacyAdjustTarget(delay, 120, -1_000n * BigInt(hour), old.target),
    'a time before the epoch start wraps',
  )
})

t.test('below SlowEpoch an epoch five times too slow adjusts at once; above it, it waits for the epoch end', async (t) => {
  const slow = at(70_000)
  const late = slow.epochStart + 5 * 120 * 30_000_000 + 1
  t.not(expectedTarget(slow, [], late), slow.target, 'an emergency adjustment at 70000')
  t.equal(expectedTarget(slow, [], late - 1), slow.target, 'exactly five times is not too slow')
  t.equal(expectedTarget(at(80_000), [], late), at(80_000).target, 'none from 80000')
})

t.test('the epoch start moves to the parent creation time at an epoch start, and stays otherwise', async (t) => {
  t.equal(expectedEpochStart(at(5_000_000), 0), at(5_000_000).epochStart)
  t.equal(expectedEpochStart(at(5_000_039), 0), at(5_000_039).creationTime)
  t.equal(expectedEpochStart(at(452_759), 7), 7, 'before OldTargetGuard: the new block own creation time')
  // A chain's first block after its genesis: its child's epoch starts there (chains 10-19 from 852054).
  const first = at(852_055, { chainId: 10 })
  t.equal(expectedEpochStart(first, 0), first.creationTime)
  t.equal(
    expectedEpochStart({ ...at(5_000_000), chainId: 42 }, 0),
    at(5_000_000).epochStart,
    'a chain the network lacks has no first block',
  )
  // Development networks fake the first epoch start at height 2.
  const devnet = { ...genesisBlock(getNetwork('development'), 0).header, height: 1, creationTime: 42, target: EASY_TARGET }
  t.equal(expectedEpochStart(devnet, 0), 42)
  t.equal(expectedEpochStart({ ...devnet, version: 'mainnet01' }, 0), devnet.epochStart, 'not on mainnet01')
  t.ok(difficulty(EASY_TARGET) === 4n)
})
