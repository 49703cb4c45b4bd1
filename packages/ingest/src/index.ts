export { backoffDelay, isTransient } from './backoff.js'
export {
  IngestError,
  IngestStoppedError,
  InvalidIngestOptionError,
  UpstreamHttpError,
  UpstreamRefusedError,
  UpstreamResponseError,
  UpstreamUnreachableError,
} from './errors.js'
export { EventStreamParser, type EventStreamParserOptions, type ServerSentEvent } from './event-stream.js'
export { HttpClient, type HttpClientOptions, retryAfterMs } from './http-client.js'
export { createIngest, type Ingest } from './ingest.js'
export { type IngestLogger, silentLogger } from './logger.js'
export type { IngestEvent, IngestOptions } from './options.js'
export { type IngestPhase, type IngestStatus, type ReadinessInput, readiness } from './status.js'
export type { UpstreamFailure, UpstreamState, UpstreamStatus } from './upstream-entry.js'
export {
  type DiscoveryOptions,
  discoverUpstream,
  type ParsedUpstreamUrl,
  parseUpstreamUrl,
  type UpstreamTarget,
} from './upstream-target.js'
