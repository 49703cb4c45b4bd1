import type {
  AnyBlockHeader,
  AnyBlockPage,
  AnyFullBlock,
  AnyHeaderUpdate,
  BranchBounds,
  EventFilter,
  EventUpdate,
  IndexedEvent,
  IndexedTransfer,
  IndexPage,
  IndexPageQuery,
  PageQuery,
  TransactionCopies,
} from '@weft/api'
import type { NetworkName, NodeInfo, Profile } from '@weft/types'

/** The network a node serves and the profile it speaks. */
export interface Target {
  network: NetworkName
  profile: Profile
}

/**
 * How to reach a node: its URL (its root, or a base path such as `.../chainweb/0.0/mainnet01`, which
 * names the profile and network), and the network and profile it serves when the URL does not say
 * (found out from `/info` when left out).
 */
export interface ClientOptions {
  url: string
  network?: NetworkName
  profile?: Profile
  /** Check every response body against its `@weft/types` schema (default false; needs `@weft/types` installed). */
  validate?: boolean
  /** Replaces the global `fetch`, e.g. to add a dispatcher. */
  fetch?: typeof globalThis.fetch
  /** Extra request headers sent with every request. */
  headers?: Readonly<Record<string, string>>
}

/** Options of the header update stream. */
export interface HeaderUpdatesOptions {
  /** Ends the stream (the iterator returns) when aborted. */
  signal?: AbortSignal
  /** First wait before reconnecting, in milliseconds (default 500); doubles up to `maxRetryDelay`. */
  retryDelay?: number
  /** Longest wait between reconnection attempts, in milliseconds (default 5000). */
  maxRetryDelay?: number
  /** Reconnect when nothing, not even a keep-alive comment, arrived for this long, in milliseconds (default 60000; 0: never). */
  idleTimeout?: number
  /** The id of the last event an earlier run saw (an update's `id`): the stream starts right after it, if the node still has it. */
  lastEventId?: string
  /**
   * Weft only: the node's stream at this confirmation depth (`?depth=`, 0 to 1000): each block of the
   * winning branch once it is `depth` below its chain's head, never an orphan. A node without depth
   * streams (the real chainweb-node) ignores it: use `confirmedHeaders` there.
   */
  depth?: number
}

/**
 * An item of `headerEvents`: a (re)connection, or an update with its event id (when the node gives
 * ids). `resumed: true`: the stream goes on right after the last update, nothing missed; `false`:
 * events may have been missed (a first connection, a node without ids, or the node's `reason`,
 * e.g. `EVENT_ID_EXPIRED`, why it could not resume): catch up with page queries.
 */
export type HeaderStreamEvent =
  | { type: 'connected'; resumed: boolean; reason?: string }
  | { type: 'update'; update: AnyHeaderUpdate; id?: string }

/** A block already emitted: where a resumed stream continues from. */
export interface EmittedBlock {
  hash: string
  height: number
}

/** Options of `confirmedHeaders`. */
export interface ConfirmedHeadersOptions {
  /** How many blocks must sit on top of a header before it is emitted (0: the head itself). */
  depth: number
  /** The chains to follow (default: every chain of the node's current graph). */
  chains?: readonly number[]
  /** Per chain, the last header emitted by an earlier run: emission resumes right after it, history included. */
  after?: ReadonlyMap<number, EmittedBlock>
  /** Most headers held before they are emitted (default 1000); a longer gap is read twice, in windows. */
  maxGap?: number
  /** Ends the stream when aborted. */
  signal?: AbortSignal
  /** First wait before reconnecting, in milliseconds (default 500). */
  retryDelay?: number
  /** Longest wait between reconnection attempts, in milliseconds (default 5000). */
  maxRetryDelay?: number
  /** Reconnect after this long without a byte from the stream, in milliseconds (default 60000; 0: never). */
  idleTimeout?: number
}

/** Options of `eventUpdates`. */
export interface EventUpdatesOptions {
  /** Ends the stream (the iterator returns) when aborted. */
  signal?: AbortSignal
  /** Wait before reconnecting, in milliseconds (default 500). */
  retryDelay?: number
  /** Reconnect when nothing, not even a keep-alive comment, arrived for this long, in milliseconds (default 60000; 0: never). */
  idleTimeout?: number
  /** The id of the last event an earlier run saw: the stream starts right after it, if the node still has it. */
  lastEventId?: string
  /** Called with the node's `ResumeFromPage` data when it could not resume after the id sent back: events were missed (read them with `events`). */
  onResumeFailed?: (data: string) => void
}

/** The typed client of one Weft (or chainweb) node. */
export interface WeftClient {
  readonly url: string
  /** The network and profile the client speaks, found out from `/info` when not given. */
  target(): Promise<Target>
  /** GET /info. */
  info(): Promise<NodeInfo>
  /** GET /health-check: the body text; throws WeftHttpError unless 200. */
  health(): Promise<string>
  /** One page of GET block; a query that matches nothing is an empty page in both profiles. */
  blockPage(chain: number, query?: PageQuery): Promise<AnyBlockPage>
  /** Every page of GET block, following `next`. */
  blockPages(chain: number, query?: PageQuery): AsyncGenerator<AnyBlockPage>
  /** Every block of GET block, following `next`: ascending height, orphans included. */
  blocks(chain: number, query?: PageQuery): AsyncGenerator<AnyFullBlock>
  /** One page of POST branch; a query that matches nothing is an empty page in both profiles. */
  branchPage(chain: number, bounds: BranchBounds, query?: PageQuery): Promise<AnyBlockPage>
  /** Every page of POST branch, following `next`. */
  branchPages(chain: number, bounds: BranchBounds, query?: PageQuery): AsyncGenerator<AnyBlockPage>
  /** Every block of POST branch, following `next`: descending height. */
  branch(chain: number, bounds: BranchBounds, query?: PageQuery): AsyncGenerator<AnyFullBlock>
  /** The best head (highest weight, ties to the lowest hash) of each chain; from GET cut, or searched with GET block. */
  heads(chains?: readonly number[]): Promise<Map<number, AnyBlockHeader>>
  /** The header update stream; reconnects whenever the server ends it or the connection fails. */
  headerUpdates(options?: HeaderUpdatesOptions): AsyncGenerator<AnyHeaderUpdate>
  /** The header update stream with a `connected` item at each (re)connection, for callers that resynchronise then. */
  headerEvents(options?: HeaderUpdatesOptions): AsyncGenerator<HeaderStreamEvent>
  /** Each header once it is `depth` blocks deep on its chain's winning branch: no orphan, no gap. */
  confirmedHeaders(options: ConfirmedHeadersOptions): AsyncGenerator<AnyBlockHeader>
  /** Weft, spec profile: every stored copy of a transaction, each marked canonical or orphaned with its depth (404 `TX_NOT_FOUND` when none). */
  transaction(requestKey: string, chain?: number): Promise<TransactionCopies>
  /** Weft, spec profile: one page of events by qualified name or by module, newest first. */
  eventPage(filter: EventFilter, query?: IndexPageQuery): Promise<IndexPage<IndexedEvent>>
  /** Weft, spec profile: every event by name or module, newest first, following `next`. */
  events(filter: EventFilter, query?: IndexPageQuery): AsyncGenerator<IndexedEvent>
  /** Weft, spec profile: one page of an account's transfers of `token` (default coin), newest first. */
  transferPage(account: string, token?: string, query?: IndexPageQuery): Promise<IndexPage<IndexedTransfer>>
  /** Weft, spec profile: every transfer of an account, newest first, following `next`. */
  transfers(account: string, token?: string, query?: IndexPageQuery): AsyncGenerator<IndexedTransfer>
  /** Weft: events by name or module as their blocks join the winning branch, resumed across reconnections. */
  eventUpdates(filter: EventFilter, options?: EventUpdatesOptions): AsyncGenerator<EventUpdate>
}
