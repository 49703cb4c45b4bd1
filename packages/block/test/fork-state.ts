import t from 'tap'
import {
  addVote,
  childForkState,
  countVotes,
  decideVotes,
  forkEpochBlocks,
  forkNumberOf,
  forkState,
  forkVotesOf,
  genesisBlock,
  getNetwork,
  type Header,
  isForkEpochStart,
  isForkVoteBlock,
  VOTE_STEP,
} from '../src/index.js'

const { rules } = getNetwork('mainnet01')
const parentAt = (height: number, flags: bigint, chainId = 0): Header => ({
  ...genesisBlock(getNetwork('mainnet01'), 0).header,
  height,
  chainId,
  featureFlags: flags,
})

t.test('the feature flags hold the fork number low and the votes high, each a u32', async (t) => {
  const flags = forkState(7, 2_097_152_000)
  t.equal(flags, (2_097_152_000n << 32n) | 7n)
  t.ok(flags > 2n ** 53n, 'votes of two million take the flags above 2^53')
  t.same([forkNumberOf(flags), forkVotesOf(flags)], [7, 2_097_152_000])
  t.equal(addVote(0xffffffff), VOTE_STEP - 1, 'votes wrap at 2^32 as the node Word32 does')
})

t.test('a fork epoch is 14,400 blocks: 14,280 cast votes, 120 count them', async (t) => {
  t.equal(forkEpochBlocks(rules), 14_400)
  t.same([isForkEpochStart(rules, 6_321_600), isForkEpochStart(rules, 6_321_599)], [true, false])
  t.same([isForkVoteBlock(rules, 6_321_600 + 14_279), isForkVoteBlock(rules, 6_321_600 + 14_280)], [true, false])
})

t.test('votes decide the next fork with two thirds of the casting blocks, rounded half to even', async (t) => {
  t.equal(decideVotes(rules, 9_520_000), true)
  t.equal(decideVotes(rules, 9_519_000), false)
  t.equal(decideVotes(rules, 9_519_500), true, '9519.5 rounds to 9520')
  t.equal(decideVotes(rules, 9_518_500), false, '9518.5 rounds to 9518')
  t.equal(countVotes([1000, 0, 0, 0]), 250)
  t.equal(countVotes([1000, 1000, 0]), 666, 'rounded down')
})

t.test('a child fork state follows release 3.2 newForkState', async (t) => {
  const start = 6_321_600
  t.equal(childForkState(parentAt(start + 5, forkState(0, 6000)), [], true), forkState(0, 7000), 'a yes vote adds one')
  t.equal(childForkState(parentAt(start + 5, forkState(0, 6000)), [], false), forkState(0, 6000), 'no vote keeps them')
  const counting = parentAt(start + 14_300, forkState(0, 4000))
  const adjacents = [parentAt(start + 14_300, forkState(0, 0), 5), parentAt(start + 14_300, forkState(0, 2000), 10)]
  t.equal(childForkState(counting, adjacents, true), forkState(0, 2000), 'counting blocks average their parents')
  const decided = parentAt(start + 14_399, forkState(3, 14_280_000))
  t.equal(childForkState(decided, [], true), forkState(4, 1000), 'at an epoch start the fork moves on and the votes start again')
  t.equal(childForkState(parentAt(start + 14_399, forkState(3, 1000)), [], false), forkState(3, 0))
})
