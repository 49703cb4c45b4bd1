import type { Network } from '@weft/block'
import type { Ingest } from '@weft/ingest'
import type { ChainStore } from '@weft/store'
import type { ServerConfig } from './config/config.js'
import type { InFlight } from './http/in-flight.js'
import type { BlockWaits } from './pact/block-waits.js'
import type { ProfileRules } from './profile/profiles.js'
import type { ReportedRelease } from './profile/release.js'
import type { BranchContinuations } from './read/branch-continuations.js'
import type { AnnouncementLog } from './streams/announcement-log.js'
import type { DepthFeeds } from './streams/depth-feeds.js'
import type { EventHub } from './streams/event-hub.js'
import type { ClientLimits } from './traffic/client-limits.js'
import type { ReadSlots } from './traffic/read-slots.js'

/**
 * The running node's parts, as start-up makes them (server.ts) and the application hands them out
 * (app.ts): each room is given the few it touches, never this whole record.
 */
export interface NodeContext {
  readonly store: ChainStore
  readonly network: Network
  readonly rules: ProfileRules
  readonly config: ServerConfig
  /** Version string the node reports (version header, /info, OpenAPI): the emulated release's or Weft's own. */
  readonly nodeVersion: string
  /** What the node reports of its software in /info (see profile/release.ts). */
  readonly release: ReportedRelease
  /** Chains of the newest graph: the only valid `{chain}` path segments. */
  readonly chains: ReadonlySet<number>
  /** `nodeServiceDate` of /info, when the release reports one. */
  readonly serviceDate: string
  readonly headerUpdates: EventHub
  readonly blockUpdates: EventHub
  /** The streams' announcements, kept for the clients that resume. */
  readonly announcements: AnnouncementLog
  /** The streams of blocks at a confirmation depth (`?depth=N`), one feed per depth asked for. */
  readonly depthFeeds: DepthFeeds
  /** Branch walks suspended after a page, for the request that continues them. */
  readonly branchWalks: BranchContinuations
  /** Waits of `/listen` for blocks joining a chain's winning branch (ended at shutdown). */
  readonly blockWaits: BlockWaits
  /** Requests whose handlers are running (shutdown waits for them). */
  readonly requests: InFlight
  /** Connections, and requests and streams per client address, counted and limited. */
  readonly limits: ClientLimits
  /** The slots chain reads take turns in. */
  readonly readSlots: ReadSlots
  /** Upstream mode: what follows the upstreams (its `status()` gives readiness, lag, rates and per-upstream state). */
  readonly ingest?: Ingest
}
