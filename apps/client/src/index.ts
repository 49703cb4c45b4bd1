export {
  type AnyBlockHeader,
  type AnyBlockPage,
  type AnyFullBlock,
  type AnyHeaderUpdate,
  type BranchBounds,
  type ClientOptions,
  createClient,
  type HeaderStreamEvent,
  type HeaderUpdatesOptions,
  type PageQuery,
  queryString,
  type WeftClient,
} from './client.js'
export { type ConfirmedHeadersOptions, confirmedHeaders, type EmittedBlock } from './confirmed-headers.js'
export {
  InvalidOptionError,
  InvalidResponseError,
  ReorgTooDeepError,
  UsageError,
  WeftClientError,
  WeftHttpError,
  WeftNetworkError,
} from './errors.js'
export { parseEventStream, type ServerSentEvent } from './event-stream.js'
export { compareHeaders, type RankedHeader } from './header-order.js'
export { type MirrorEvent, type MirrorOptions, type MirrorResult, mirror } from './mirror.js'
export { isTransient, sleep } from './retry.js'
export { type CliIo, runCli } from './run-cli.js'
