import { WeftError } from '@weft/errors'

/** Base class of every error of @weft/ingest: `code` is stable and documented in the README. */
export abstract class IngestError extends WeftError {}

/**
 * An upstream answered with a status outside 2xx. `serverCode` is the cause it named (a spec-profile
 * problem's `code`, `KEY_NOT_FOUND` for chainweb's key-reason body), else `HTTP_<status>`;
 * `retryAfterMs` is its `Retry-After`, when it sent one.
 */
export class UpstreamHttpError extends IngestError {
  static override readonly codes = ['UPSTREAM_HTTP_ERROR'] as const
  readonly status: number
  readonly url: string
  readonly serverCode: string
  readonly retryAfterMs: number | undefined
  constructor(method: string, url: string, status: number, serverCode: string, retryAfterMs: number | undefined, detail: string) {
    super(
      'UPSTREAM_HTTP_ERROR',
      `Expected a 2xx answer to ${method} ${url}, received ${status} (${serverCode})${detail ? `: ${detail}` : ''}`,
    )
    this.status = status
    this.url = url
    this.serverCode = serverCode
    this.retryAfterMs = retryAfterMs
  }
}

/** An upstream gave no answer: connection refused or reset, or no byte within the timeout. */
export class UpstreamUnreachableError extends IngestError {
  static override readonly codes = ['UPSTREAM_UNREACHABLE'] as const
  readonly url: string
  constructor(url: string, reason: string, options?: ErrorOptions) {
    super('UPSTREAM_UNREACHABLE', `Expected an answer from ${url}, received none: ${reason}`, options)
    this.url = url
  }
}

/** An upstream answered 2xx with a body ingest cannot use: not JSON, not the contract's shape, or a block it cannot decode. */
export class UpstreamResponseError extends IngestError {
  static override readonly codes = ['UPSTREAM_BAD_RESPONSE'] as const
  constructor(detail: string, options?: ErrorOptions) {
    super('UPSTREAM_BAD_RESPONSE', detail, options)
  }
}

/** An upstream this node must not follow: it serves another network, or it is not recognisably a chainweb-node or a Weft. */
export class UpstreamRefusedError extends IngestError {
  static override readonly codes = ['UPSTREAM_NETWORK_MISMATCH', 'UPSTREAM_UNRECOGNISED'] as const
  readonly url: string
  constructor(code: 'UPSTREAM_NETWORK_MISMATCH' | 'UPSTREAM_UNRECOGNISED', url: string, detail: string) {
    super(code, detail)
    this.url = url
  }
}

/** An option of `createIngest` or `discoverUpstream` out of its range. */
export class InvalidIngestOptionError extends IngestError {
  static override readonly codes = ['INVALID_INGEST_OPTION'] as const
  constructor(option: string, expected: string, received: unknown) {
    super('INVALID_INGEST_OPTION', `Expected ${option} to be ${expected}, received ${describe(received)}`)
  }
}

/** Work was cut short because `stop()` was called. */
export class IngestStoppedError extends IngestError {
  static override readonly codes = ['INGEST_STOPPED'] as const
  constructor() {
    super('INGEST_STOPPED', 'Expected ingest to be running, but it was stopped')
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(describe).join(', ')}]`
  return String(value)
}
