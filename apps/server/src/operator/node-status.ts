import { encodeHash } from '@weft/hash-text'
import type { ChainStore } from '@weft/store'
import { basePath, type ProfileRules } from '../profile/profiles.js'
import type { ChainActivity, Reorg } from './chain-activity.js'
import { type StoreWriteStatus, storeWriteStatus } from './store-state.js'

/** One chain's head in the node's cut, for the status page. */
export interface ChainHead {
  readonly chain: number
  readonly height: number
  readonly hash: string
  /** The head's creation time, microseconds since the epoch. */
  readonly creationTime: number
}

/** The body of `GET /status`: what the status page shows, as JSON. */
export interface NodeStatus {
  readonly network: string
  readonly profile: string
  readonly version: string
  /** Path of this node's \`/cut\` (under the profile's base). */
  readonly cutPath: string
  /** `devnet` when the node's own producer makes its blocks, else `store` (blocks come from elsewhere). */
  readonly source: 'devnet' | 'store'
  /** The server's clock, milliseconds since the epoch: ages are measured against it. */
  readonly now: number
  readonly cutHeight: number
  readonly blocksPerSecond: number
  readonly chains: readonly ChainHead[]
  /** Whether the store takes writes (not while its disk is full). */
  readonly store: StoreWriteStatus
  readonly reorgs: readonly Reorg[]
}

/** What the status reads besides the chain activity: the store's cut, the profile, the version and the block source. */
export interface StatusFacts {
  readonly store: ChainStore
  readonly rules: ProfileRules
  /** The version string the node reports. */
  readonly nodeVersion: string
  readonly source: NodeStatus['source']
}

/** The node's status now: its cut's heads, rate and recent reorgs. */
export function nodeStatus(facts: StatusFacts, activity: ChainActivity): NodeStatus {
  const { store, rules } = facts
  const chains = [...store.cut()]
    .sort(([a], [b]) => a - b)
    .map(([chain, header]) => ({ chain, height: header.height, hash: encodeHash(header.hash), creationTime: header.creationTime }))
  return {
    network: store.network.name,
    profile: rules.name,
    version: facts.nodeVersion,
    cutPath: `${basePath(rules, store.network.name)}/cut`,
    source: facts.source,
    now: Date.now(),
    cutHeight: chains.reduce((sum, head) => sum + head.height, 0),
    blocksPerSecond: Math.round(activity.blocksPerSecond() * 1000) / 1000,
    chains,
    store: storeWriteStatus(store.writeState()),
    reorgs: activity.recentReorgs(),
  }
}
