import { getNetwork } from '@weft/block'
import t from 'tap'
import { profiles } from '../../src/profile/profiles.js'
import { reportedRelease } from '../../src/profile/release.js'
import { type InfoFacts, nodeInfo, nodeInfoText } from '../../src/read/info-body.js'
import { cutAndInfo } from '../fixtures/vectors.js'

const mainnet = getNetwork('mainnet01')
const serviceDate = '2030-01-02T00:00:00.000Z'
const facts = (network = mainnet, profile: 'spec' | 'chainweb' = 'chainweb', release: '3.2' | '2.32' = '3.2'): InfoFacts => ({
  network,
  rules: profiles[profile],
  release: reportedRelease(profiles[profile], release, network, '9.9.9'),
  serviceDate,
})
const cutAt = (chains: number, height: number) => new Map(Array.from({ length: chains }, (_, chain) => [chain, { height }]))

t.test("info of a genesis cut is release 3.2's text", async (t) => {
  t.equal(nodeInfoText(facts(), cutAt(10, 0)), cutAndInfo.mainnet01.info.genesisCut)
  t.equal(nodeInfoText(facts(getNetwork('testnet06')), cutAt(20, 0)), cutAndInfo.testnet06.info.genesisCut)
})

t.test('nodeChains is the graph at the highest head of the cut, so it may list 20 chains while the cut has 10', async (t) => {
  const transition = new Map(cutAt(10, 852053))
  transition.set(2, { height: 852054 })
  t.equal(nodeInfoText(facts(), transition), cutAndInfo.mainnet01.info.allTwentyChains)
  t.equal(nodeInfoText(facts(), cutAt(20, 900000)), cutAndInfo.mainnet01.info.allTwentyChains)
  t.equal(nodeInfo(facts(), cutAt(10, 852053)).nodeNumberOfChains, 10)
})

t.test('the spec profile lists every chain ascending and reports its own version and a service date', async (t) => {
  const info = nodeInfo(facts(mainnet, 'spec'), cutAt(10, 0))
  t.same(info.nodeChains, ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'])
  t.same(
    info.nodeGenesisHeights.map(([chain]) => chain),
    Array.from({ length: 20 }, (_, chain) => String(chain)),
  )
  t.same(info.nodeGraphHistory[1]![1][9], [9, [4, 5, 8]], 'adjacency lists ascending too')
  t.same(
    [info.nodePackageVersion, info.nodeServiceDate, info.nodeBlockDelay, info.nodeLatestBehaviorHeight],
    ['9.9.9', serviceDate, 30, 6510743],
  )
  t.same(Object.keys(info), [...Object.keys(info)].sort(), 'keys alphabetical')
})

t.test('emulating release 2.32 reports its version, its behaviour height and a service date', async (t) => {
  const info = nodeInfo(facts(mainnet, 'chainweb', '2.32'), cutAt(10, 0))
  t.same([info.nodePackageVersion, info.nodeLatestBehaviorHeight, info.nodeServiceDate], ['2.32', 6269345, serviceDate])
  t.same(Object.keys(info), [...Object.keys(info)].sort(), 'the service date in its alphabetical place')
})
