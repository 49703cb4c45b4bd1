export type { BodyKind, ResponseChecker } from './checker.js'
export { describeNode, type NodeDescription } from './discovery.js'
export { ApiError, InvalidResponseError, WeftHttpError, WeftNetworkError } from './errors.js'
export { EventStreamParser, type EventStreamParserOptions, parseEventStream, type ServerSentEvent } from './event-stream.js'
export { parseJsonExact, stringifyJsonExact } from './exact-json.js'
export { createFetchTransport, type FetchTransport, type FetchTransportOptions, type OpenedStream } from './fetch-transport.js'
export {
  type EventFilter,
  type EventUpdate,
  type IndexedEvent,
  type IndexedPlace,
  type IndexedTransfer,
  type IndexPage,
  type IndexPageQuery,
  indexPaths,
  type TransactionCopies,
} from './index-paths.js'
export { emptyPage, followingCursor, followPages, isNoMatch, type PageLike } from './pages.js'
export { chainPaths, type NodeUrl, nodeUrlProblem, type PageQuery, pageQueryString, parseNodeUrl } from './paths.js'
export { basePath, type HeaderReader, nodeVersionOf, type ProfileWire, profileOfHeaders, wireProfiles } from './profiles.js'
export {
  type BranchBounds,
  type ChainTarget,
  type ReadOptions,
  readBlockPage,
  readBranchPage,
  readCut,
  readHeaderUpdate,
  readInfo,
} from './reads.js'
export { isTransient, isTransientStatus, retryAfterMs } from './transient.js'
export { httpErrorOf, type Send, type WireAnswer, type WireRequest } from './transport.js'
export type { AnyBlockHeader, AnyBlockPage, AnyFullBlock, AnyHeaderUpdate, ExactHeader, WithExactHeader } from './wire-types.js'
