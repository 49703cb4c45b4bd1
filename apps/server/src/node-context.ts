import type { Network } from '@weft/block'
import type { Ingest } from '@weft/ingest'
import type { ChainStore } from '@weft/store'
import type { BranchContinuations } from './branch-continuations.js'
import type { ServerConfig } from './config.js'
import type { EventHub } from './event-hub.js'
import type { InFlight } from './in-flight.js'
import type { ProfileRules } from './profiles.js'

/** What every route needs: the store, the network, the profile's rules and the running settings. */
export interface NodeContext {
  readonly store: ChainStore
  readonly network: Network
  readonly rules: ProfileRules
  readonly config: ServerConfig
  /** Version string of the node software (package version). */
  readonly nodeVersion: string
  /** Chains of the newest graph: the only valid `{chain}` path segments. */
  readonly chains: ReadonlySet<number>
  /** `nodeServiceDate` of /info. */
  readonly serviceDate: string
  readonly headerUpdates: EventHub
  readonly blockUpdates: EventHub
  /** Branch walks suspended after a page, for the request that continues them. */
  readonly branchWalks: BranchContinuations
  /** Requests whose handlers are running (shutdown waits for them). */
  readonly requests: InFlight
  /** Upstream mode: what follows the upstreams (its `status()` gives readiness, lag, rates and per-upstream state). */
  readonly ingest?: Ingest
}
