import { type ProfileWire, basePath as wireBasePath, wireProfiles } from '@weft/api'
import { inChainwebNodeOrder } from '@weft/block'
import type { Profile } from '@weft/types'
import { type ErrorTable, errorTables } from './error-table.js'

/**
 * Every rule in which the two profiles differ: the profile table of docs/wire/profiles.md, one field per row. The
 * rows a client sees (base path, version header, the last page, no match) are `@weft/api`'s.
 */
export interface ProfileRules extends ProfileWire {
  /** Key of the network name in header JSON. */
  readonly versionKey: 'chainVersion' | 'chainwebVersion'
  /** Status and body of every error, by code: the rows about malformed values, unknown hashes and error bodies. */
  readonly errors: ErrorTable
  /** Unit of `nodeBlockDelay` in /info, in microseconds per unit. */
  readonly blockDelayMicros: 1_000_000 | 1
  /** Which headers the update streams carry. */
  readonly headerEvents: 'inserted' | 'cut'
  /** Order of chain ids in every map or set (/cut, /info): ascending, or chainweb-node's (the order of its hash maps). */
  readonly chainOrder: 'ascending' | 'chainweb-node'
  /** Key order of update-event data: the contract's canonical order, or every object's keys alphabetical (the real node). */
  readonly eventKeys: 'canonical' | 'alphabetical'
  /** A branch's `maxheight`: a filter only, or (the real node) upper bounds replaced by their ancestors at it, lower ones dropped. */
  readonly branchMaxheight: 'filter' | 'ancestor-bounds'
  /** Whether the version string and /info follow `--emulate` (the real node's releases) or report Weft's own. */
  readonly emulatesRelease: boolean
  /** Whether chainweb-node's Pact service paths are served (`/poll`, `/listen`; the others refused): the real node's API only. */
  readonly pactService: boolean
  /** Whether chainweb-data's API is served at the host root (`/txs/events`, `/txs/account/{account}`): what explorers of the real network read. */
  readonly chainwebData: boolean
  /** Whether the transaction index's resources are served under brand-neutral names (`{base}/transaction/{requestKey}`, `{base}/event`, `{base}/transfer`). */
  readonly indexResources: boolean
}

/** The profile table of docs/wire/profiles.md as data. */
export const profiles: Readonly<Record<Profile, ProfileRules>> = {
  spec: {
    ...wireProfiles.spec,
    versionKey: 'chainVersion',
    errors: errorTables.spec,
    blockDelayMicros: 1_000_000,
    headerEvents: 'inserted',
    chainOrder: 'ascending',
    eventKeys: 'canonical',
    branchMaxheight: 'filter',
    emulatesRelease: false,
    pactService: false,
    chainwebData: false,
    indexResources: true,
  },
  chainweb: {
    ...wireProfiles.chainweb,
    versionKey: 'chainwebVersion',
    errors: errorTables.chainweb,
    blockDelayMicros: 1,
    headerEvents: 'cut',
    chainOrder: 'chainweb-node',
    eventKeys: 'alphabetical',
    branchMaxheight: 'ancestor-bounds',
    emulatesRelease: true,
    pactService: true,
    chainwebData: true,
    indexResources: false,
  },
}

/** `{base}` of a profile and network, e.g. `/chain/0.0/development`. */
export function basePath(rules: ProfileRules, network: string): string {
  return wireBasePath(rules.name, network)
}

/** `chains` in the profile's order: ascending (spec) or chainweb-node's (chainweb). */
export function inProfileOrder(rules: ProfileRules, chains: Iterable<number>): number[] {
  return rules.chainOrder === 'chainweb-node' ? inChainwebNodeOrder(chains) : [...chains].sort((a, b) => a - b)
}
