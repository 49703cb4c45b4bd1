export { type BackoffOptions, backoffDelay } from './backoff.js'
export { IngestError, IngestStoppedError, InvalidIngestOptionError, UpstreamRefusedError, UpstreamResponseError } from './errors.js'
export { HttpClient, type HttpClientOptions } from './http-client.js'
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
