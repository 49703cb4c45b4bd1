import { WeftError } from '@weft/errors'

/** Base class of every error of @weft/client: `code` is stable and documented in the README. */
export abstract class WeftClientError extends WeftError {}

/**
 * A response with a status outside 2xx: carries the status, the parsed body (JSON or text) and
 * `serverCode`, the cause the server named (its problem body's `code`, chainweb's `KEY_NOT_FOUND`,
 * else `HTTP_<status>`); those codes belong to the server, so the error's own code is `HTTP_ERROR`.
 */
export class WeftHttpError extends WeftClientError {
  static override readonly codes = ['HTTP_ERROR'] as const
  readonly status: number
  readonly body: unknown
  readonly url: string
  /** The cause the server named: the problem body's `code`, `KEY_NOT_FOUND`, or `HTTP_<status>`. */
  readonly serverCode: string

  constructor(status: number, body: unknown, url: string, method = 'GET') {
    super('HTTP_ERROR', `${method} ${url} answered ${status}: ${describeBody(body)}`)
    this.status = status
    this.body = body
    this.url = url
    this.serverCode = serverCodeOf(status, body)
  }
}

/** The request never got an answer (connection refused, reset, DNS): the cause says why. */
export class WeftNetworkError extends WeftClientError {
  static override readonly codes = ['NETWORK_ERROR'] as const

  constructor(url: string, options: { cause: unknown }) {
    super('NETWORK_ERROR', `no answer from ${url}: ${rootCause(options.cause)}`, options)
  }
}

/** A response body that does not match its `@weft/types` schema (only when validation is on). */
export class InvalidResponseError extends WeftClientError {
  static override readonly codes = ['INVALID_RESPONSE'] as const
  readonly errors: string[]

  constructor(what: string, errors: string[]) {
    super('INVALID_RESPONSE', `Expected ${what} to match its schema, received a body where ${errors.slice(0, 3).join('; ')}`)
    this.errors = errors
  }
}

/** A reorganisation reached a header `confirmedHeaders` had already emitted: `depth` was too small. */
export class ReorgTooDeepError extends WeftClientError {
  static override readonly codes = ['REORG_TOO_DEEP'] as const
  readonly chain: number

  constructor(chain: number, depth: number, emittedHash: string) {
    super(
      'REORG_TOO_DEEP',
      `Expected the winning branch of chain ${chain} to contain ${emittedHash}, emitted as ${depth} blocks deep, but it no longer does; choose a larger depth`,
    )
    this.chain = chain
  }
}

/** An option out of its range, e.g. a negative `depth`. */
export class InvalidOptionError extends WeftClientError {
  static override readonly codes = ['INVALID_CLIENT_OPTION'] as const
  /** The option's name. */
  readonly option: string

  constructor(option: string, expected: string, received: unknown) {
    super('INVALID_CLIENT_OPTION', `Expected ${option} to be ${expected}, received ${String(received)}`)
    this.option = option
  }
}

/** Bad command-line arguments; the CLI prints the message and the command's usage, and exits 2. */
export class UsageError extends WeftClientError {
  static override readonly codes = ['CLI_USAGE'] as const

  constructor(message: string, options?: { cause?: unknown }) {
    super('CLI_USAGE', message, options)
  }
}

// fetch wraps the socket error ("fetch failed" -> "connect ECONNREFUSED ..."): the innermost says most.
function rootCause(error: unknown): string {
  let current = error
  while (current instanceof Error && current.cause !== undefined) current = current.cause
  return current instanceof Error ? current.message : String(current)
}

// The spec profile's problem bodies name their cause; the chainweb profile's 404 body is {key, reason}.
function serverCodeOf(status: number, body: unknown): string {
  if (typeof body === 'object' && body !== null) {
    const record = body as Record<string, unknown>
    if (typeof record.code === 'string') return record.code
    if (record.reason === 'key not found') return 'KEY_NOT_FOUND'
  }
  return `HTTP_${status}`
}

function describeBody(body: unknown): string {
  if (typeof body === 'string') return body.trim().slice(0, 200) || '(empty body)'
  if (typeof body === 'object' && body !== null) {
    const record = body as Record<string, unknown>
    if (typeof record.detail === 'string') return record.detail
  }
  return JSON.stringify(body).slice(0, 200)
}
