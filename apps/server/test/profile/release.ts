import { getNetwork } from '@weft/block'
import { networkNames } from '@weft/types'
import t from 'tap'
import { profiles } from '../../src/profile/profiles.js'
import { latestBehaviorHeight, reportedRelease } from '../../src/profile/release.js'

t.test('each release knows the behaviour heights of its networks; others get 1 + their newest graph height', async (t) => {
  const heights = (release: '3.2' | '2.32') => networkNames.map((name) => [name, latestBehaviorHeight(getNetwork(name), release)])
  t.same(heights('3.2'), [
    ['mainnet01', 6510743],
    ['testnet06', 701],
    ['testnet04', 332605],
    ['recap-development', 61],
    ['development', 1],
    ['test-singleton', 1],
  ])
  t.same(heights('2.32'), [
    ['mainnet01', 6269345],
    ['testnet06', 1],
    ['testnet04', 332605],
    ['recap-development', 61],
    ['development', 1],
    ['test-singleton', 1],
  ])
})

t.test('the chainweb profile answers as the emulated release, the spec profile as Weft', async (t) => {
  const mainnet = getNetwork('mainnet01')
  t.same(reportedRelease(profiles.chainweb, '3.2', mainnet, '1.2.3'), { version: '3.2', serviceDate: false, latestBehaviorHeight: 6510743 })
  t.same(reportedRelease(profiles.chainweb, '2.32', mainnet, '1.2.3'), {
    version: '2.32',
    serviceDate: true,
    latestBehaviorHeight: 6269345,
  })
  for (const release of ['3.2', '2.32'] as const) {
    t.same(
      reportedRelease(profiles.spec, release, mainnet, '1.2.3'),
      { version: '1.2.3', serviceDate: true, latestBehaviorHeight: 6510743 },
      `--emulate ${release} leaves the spec profile as it is`,
    )
  }
})
