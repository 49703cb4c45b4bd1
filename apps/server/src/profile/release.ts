import type { Network } from '@weft/block'
import type { ProfileRules } from './profiles.js'

/** The releases of chainweb-node the chainweb profile can answer as (`--emulate`). */
export const emulatedReleases = ['3.2', '2.32'] as const

/** A release of chainweb-node the chainweb profile answers as. */
export type EmulatedRelease = (typeof emulatedReleases)[number]

/** What a node says about its own software, in the version header and /info. */
export interface ReportedRelease {
  /** The version header and `nodePackageVersion`. */
  readonly version: string
  /** Whether /info carries `nodeServiceDate` (release 3.2 dropped it). */
  readonly serviceDate: boolean
  /** `nodeLatestBehaviorHeight` of /info. */
  readonly latestBehaviorHeight: number
}

// 1 + the highest fork, upgrade or graph-transition height that each release knows of a network.
const knownBehaviorHeights: Readonly<Record<EmulatedRelease, Readonly<Partial<Record<Network['name'], number>>>>> = {
  '3.2': { mainnet01: 6510743, testnet06: 701 },
  '2.32': { mainnet01: 6269345 },
}

/** The release whose rules the spec profile reports (the network's release today): `--emulate` is the chainweb profile's. */
export const CURRENT_RELEASE: EmulatedRelease = '3.2'

/** `nodeLatestBehaviorHeight` of `network` as `release` knows it; a network it does not know: 1 + its newest graph's height. */
export function latestBehaviorHeight(network: Network, release: EmulatedRelease): number {
  return knownBehaviorHeights[release][network.name] ?? 1 + (network.graphs[0]?.height ?? 0)
}

/**
 * What the node reports of itself: in the chainweb profile the emulated release (its version, its
 * behaviour height, no service date on 3.2); in the spec profile Weft's own version and a service date,
 * with the behaviour height of the network's current release.
 */
export function reportedRelease(rules: ProfileRules, release: EmulatedRelease, network: Network, packageVersion: string): ReportedRelease {
  if (!rules.emulatesRelease) {
    return { version: packageVersion, serviceDate: true, latestBehaviorHeight: latestBehaviorHeight(network, CURRENT_RELEASE) }
  }
  return { version: release, serviceDate: release !== '3.2', latestBehaviorHeight: latestBehaviorHeight(network, release) }
}
