/** Base class of every error this package throws; `code` is stable and documented in the README. */
export class WeftClientError extends Error {
  readonly code: string

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = new.target.name
    this.code = code
  }
}

/** A response with a status outside 2xx: carries the status and the parsed body (JSON or text). */
export class WeftHttpError extends WeftClientError {
  readonly status: number
  readonly body: unknown
  readonly url: string

  constructor(status: number, body: unknown, url: string, method = 'GET') {
    super(codeOf(status, body), `${method} ${url} answered ${status}: ${describeBody(body)}`)
    this.status = status
    this.body = body
    this.url = url
  }
}

/** The request never got an answer (connection refused, reset, DNS): the cause says why. */
export class WeftNetworkError extends WeftClientError {
  constructor(url: string, options: { cause: unknown }) {
    super('NETWORK_ERROR', `no answer from ${url}: ${rootCause(options.cause)}`, options)
  }
}

// fetch wraps the socket error ("fetch failed" -> "connect ECONNREFUSED ..."): the innermost says most.
function rootCause(error: unknown): string {
  let current = error
  while (current instanceof Error && current.cause !== undefined) current = current.cause
  return current instanceof Error ? current.message : String(current)
}

/** A response body that does not match its `@weft/types` schema (only when validation is on). */
export class InvalidResponseError extends WeftClientError {
  readonly errors: string[]

  constructor(what: string, errors: string[]) {
    super('INVALID_RESPONSE', `${what} does not match its schema: ${errors.slice(0, 3).join('; ')}`)
    this.errors = errors
  }
}

/** A reorganisation reached a header `confirmedHeaders` had already emitted: `depth` was too small. */
export class ReorgTooDeepError extends WeftClientError {
  readonly chain: number

  constructor(chain: number, depth: number, emittedHash: string) {
    super(
      'REORG_TOO_DEEP',
      `chain ${chain}: the winning branch no longer contains ${emittedHash}, emitted as ${depth} blocks deep; choose a larger depth`,
    )
    this.chain = chain
  }
}

/** Bad command-line arguments; the CLI prints the message and the command's usage. */
export class UsageError extends WeftClientError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('USAGE', message, options)
  }
}

// The spec profile's problem bodies name their cause; the chainweb profile's 404 body is {key, reason}.
function codeOf(status: number, body: unknown): string {
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

/** An option out of its range, e.g. a negative `depth`. */
export class InvalidOptionError extends WeftClientError {
  constructor(message: string) {
    super('INVALID_OPTION', message)
  }
}
