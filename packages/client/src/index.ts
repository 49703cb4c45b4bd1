export type {
  AnyBlockHeader,
  AnyBlockPage,
  AnyFullBlock,
  AnyHeaderUpdate,
  BranchBounds,
  EventFilter,
  EventUpdate,
  ExactHeader,
  IndexedEvent,
  IndexedPlace,
  IndexedTransfer,
  IndexPage,
  IndexPageQuery,
  PageQuery,
  ServerSentEvent,
  TransactionCopies,
  WithExactHeader,
} from '@weft/api'
// The wire's failures, rule and parser are @weft/api's, the same for every reader of a node: re-exported for the client's users.
export { InvalidResponseError, isTransient, parseEventStream, WeftHttpError, WeftNetworkError } from '@weft/api'
export { createClient } from './client.js'
export { type ConfirmedHeadersSource, confirmedHeaders } from './confirmed-headers.js'
export { InvalidOptionError, ReorgTooDeepError, WeftClientError } from './errors.js'
export { compareHeaders, type RankedHeader } from './header-order.js'
export type {
  ClientOptions,
  ConfirmedHeadersOptions,
  EmittedBlock,
  EventUpdatesOptions,
  HeaderStreamEvent,
  HeaderUpdatesOptions,
  Target,
  WeftClient,
} from './types.js'
