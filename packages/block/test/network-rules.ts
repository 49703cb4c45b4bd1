import { networkNames } from '@weft/types'
import t from 'tap'
import { getNetwork, isBefore, networkRules } from '../src/index.js'

t.test('a rule change applies from its height on, from genesis, or never', async (t) => {
  t.same([isBefore(452_819, 452_820), isBefore(452_820, 452_820)], [true, false])
  t.same([isBefore(0, 'genesis'), isBefore(10 ** 9, 'never')], [false, true])
})

t.test('every network carries its rules as data: release 3.2 heights on the real ones', async (t) => {
  for (const name of networkNames) t.equal(getNetwork(name).rules, networkRules(name))
  const mainnet = networkRules('mainnet01')
  t.same(
    [mainnet.oldTarget, mainnet.skipFeatureFlagValidation, mainnet.oldDifficultyAdjustment, mainnet.slowEpoch],
    [452_820, 530_500, 771_414, 80_000],
  )
  const testnet06 = networkRules('testnet06')
  t.same([testnet06.oldTarget, testnet06.skipFeatureFlagValidation, testnet06.oldDifficultyAdjustment], [0, 0, 13])
  t.equal(networkRules('testnet04').oldDifficultyAdjustment, 318_204)
  t.same([networkRules('development').oldDifficultyAdjustment, networkRules('development').fakeFirstEpochStart], ['genesis', true])
  t.ok(Object.isFrozen(mainnet))
})
