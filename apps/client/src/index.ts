export { createClient } from './client.js'
export { type ConfirmedHeadersSource, confirmedHeaders } from './confirmed-headers.js'
export {
  InvalidOptionError,
  InvalidResponseError,
  ReorgTooDeepError,
  WeftClientError,
  WeftHttpError,
  WeftNetworkError,
} from './errors.js'
export { parseEventStream, type ServerSentEvent } from './event-stream.js'
export { compareHeaders, type RankedHeader } from './header-order.js'
export { isTransient } from './retry.js'
export type {
  AnyBlockHeader,
  AnyBlockPage,
  AnyFullBlock,
  AnyHeaderUpdate,
  BranchBounds,
  ClientOptions,
  ConfirmedHeadersOptions,
  EmittedBlock,
  ExactHeader,
  HeaderStreamEvent,
  HeaderUpdatesOptions,
  PageQuery,
  Target,
  WeftClient,
  WithExactHeader,
} from './types.js'
