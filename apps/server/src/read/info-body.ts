import { chainsAt, genesisHeight, type Network } from '@weft/block'
import type { NodeInfo } from '@weft/types'
import { inProfileOrder, type ProfileRules } from '../profile/profiles.js'
import type { ReportedRelease } from '../profile/release.js'

/** What /info says beside the cut: the network, the profile and what the node reports of itself. */
export interface InfoFacts {
  readonly network: Network
  readonly rules: ProfileRules
  readonly release: ReportedRelease
  /** `nodeServiceDate`, written only when the release reports one. */
  readonly serviceDate: string
}

/**
 * The /info object of a node standing on a cut of these head heights (chain -> height): `nodeChains`
 * is the graph in force at the highest head; chain ids in the profile's order; keys alphabetical.
 */
export function nodeInfo(facts: InfoFacts, cut: ReadonlyMap<number, { readonly height: number }>): NodeInfo {
  const { network, rules, release } = facts
  const highest = Math.max(0, ...[...cut.values()].map((head) => head.height))
  const nodeChains = inProfileOrder(rules, chainsAt(network, highest)).map(String)
  const newest = network.graphs[0]!
  const graphHistory: NodeInfo['nodeGraphHistory'] = network.graphs.map(({ height, graph }) => [
    height,
    inProfileOrder(rules, graph.keys()).map((chain) => [chain, inProfileOrder(rules, graph.get(chain)!)]),
  ])
  return {
    nodeApiVersion: '0.0',
    nodeBlockDelay: (network.blockDelay * 1_000_000) / rules.blockDelayMicros,
    nodeChains,
    nodeGenesisHeights: inProfileOrder(rules, newest.graph.keys()).map((chain) => [String(chain), genesisHeight(network, chain)]),
    nodeGraphHistory: graphHistory,
    nodeHistoricalChains: graphHistory,
    nodeLatestBehaviorHeight: release.latestBehaviorHeight,
    nodeNumberOfChains: nodeChains.length,
    nodePackageVersion: release.version,
    ...(release.serviceDate ? { nodeServiceDate: facts.serviceDate } : {}),
    nodeVersion: network.name,
  }
}

/** The /info body as text (no object of it has integer-like keys, so JSON.stringify keeps every order). */
export function nodeInfoText(facts: InfoFacts, cut: ReadonlyMap<number, { readonly height: number }>): string {
  return JSON.stringify(nodeInfo(facts, cut))
}
