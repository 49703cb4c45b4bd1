export {
  createClient,
  queryString,
  type AnyBlockHeader,
  type AnyBlockPage,
  type AnyFullBlock,
  type AnyHeaderUpdate,
  type BranchBounds,
  type ClientOptions,
  type HeaderStreamEvent,
  type HeaderUpdatesOptions,
  type PageQuery,
  type WeftClient,
} from './client.js'
export { confirmedHeaders, type ConfirmedHeadersOptions, type EmittedBlock } from './confirmed-headers.js'
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
export { mirror, type MirrorEvent, type MirrorOptions, type MirrorResult } from './mirror.js'
export { isTransient, sleep } from './retry.js'
export { runCli, type CliIo } from './run-cli.js'
