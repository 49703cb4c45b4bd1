import { encodeHash } from '@weft/hash-text'
import type { NodeContext } from '../node-context.js'
import { basePath } from '../profile/profiles.js'
import type { ChainActivity, Reorg } from './chain-activity.js'

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
  readonly reorgs: readonly Reorg[]
}

/** The node's status now: its cut's heads, rate and recent reorgs. */
export function nodeStatus(node: NodeContext, activity: ChainActivity): NodeStatus {
  const chains = [...node.store.cut()]
    .sort(([a], [b]) => a - b)
    .map(([chain, header]) => ({ chain, height: header.height, hash: encodeHash(header.hash), creationTime: header.creationTime }))
  return {
    network: node.network.name,
    profile: node.rules.name,
    version: node.nodeVersion,
    cutPath: `${basePath(node.rules, node.network.name)}/cut`,
    source: node.config.devnet ? 'devnet' : 'store',
    now: Date.now(),
    cutHeight: chains.reduce((sum, head) => sum + head.height, 0),
    blocksPerSecond: Math.round(activity.blocksPerSecond() * 1000) / 1000,
    chains,
    reorgs: activity.recentReorgs(),
  }
}
