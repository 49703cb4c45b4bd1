import { WeftError } from '@weft/errors'

/** Base class of every error of @weft/ingest: `code` is stable and documented in the README. */
export abstract class IngestError extends WeftError {}

/**
 * An upstream answered 2xx with something ingest cannot use: a block that does not decode, a cut of
 * other chains or heads, a cursor followed before, ancestry it does not serve. (What is not the wire's
 * shape at all is `@weft/api`'s `InvalidResponseError`.)
 */
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
