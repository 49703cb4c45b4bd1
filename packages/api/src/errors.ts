import { WeftError } from '@weft/errors'

/** Base class of every error of @weft/api: `code` is stable and documented in the README. */
export abstract class ApiError extends WeftError {}

/**
 * A response with a status outside 2xx: the status, the body (parsed JSON when it is JSON, else the
 * text), `serverCode` (the cause the server named: a spec-profile problem's `code`, `KEY_NOT_FOUND`
 * for chainweb's key-not-found body, else `HTTP_<status>`; those codes belong to the server) and
 * `retryAfterMs`, the wait its `Retry-After` asked for.
 */
export class WeftHttpError extends ApiError {
  static override readonly codes = ['HTTP_ERROR'] as const
  readonly status: number
  readonly body: unknown
  readonly url: string
  readonly method: string
  /** The cause the server named: the problem body's `code`, `KEY_NOT_FOUND`, or `HTTP_<status>`. */
  readonly serverCode: string
  /** Milliseconds the answer's `Retry-After` asked to wait, when it sent one. */
  readonly retryAfterMs: number | undefined

  constructor(status: number, body: unknown, url: string, method = 'GET', retryAfterMs?: number) {
    const serverCode = serverCodeOf(status, body)
    const detail = describeBody(body)
    super(
      'HTTP_ERROR',
      `Expected a 2xx answer to ${method} ${url}, received ${status} (${serverCode})${detail === '' ? '' : `: ${detail}`}`,
    )
    this.status = status
    this.body = body
    this.url = url
    this.method = method
    this.serverCode = serverCode
    this.retryAfterMs = retryAfterMs
  }
}

/** A request that got no answer, or whose answer broke off (refused, reset, timed out): the message names the innermost cause. */
export class WeftNetworkError extends ApiError {
  static override readonly codes = ['NETWORK_ERROR'] as const
  readonly url: string

  constructor(url: string, options: { cause: unknown }) {
    super('NETWORK_ERROR', `Expected an answer from ${url}, received none: ${reasonOf(options.cause)}`, options)
    this.url = url
  }
}

/**
 * A 2xx answer that is not what the wire contract says: not JSON, not the shape of its endpoint, a
 * body that fails its `@weft/types` schema (`errors` lists where), an event past the parser's bound.
 */
export class InvalidResponseError extends ApiError {
  static override readonly codes = ['INVALID_RESPONSE'] as const
  /** Where a body failed its schema (`/items/0/header/height Expected integer`); empty for other failures. */
  readonly errors: string[]

  constructor(expected: string, received: string, errors: string[] = [], options?: ErrorOptions) {
    super('INVALID_RESPONSE', `Expected ${expected}, received ${received}`, options)
    this.errors = errors
  }
}

// fetch wraps the socket error ("fetch failed" -> "connect ECONNREFUSED ..."): the innermost says
// most; node's errors add their code (ECONNRESET) when the message leaves it out.
function reasonOf(error: unknown): string {
  let current = error
  while (current instanceof Error && current.cause !== undefined) current = current.cause
  if (!(current instanceof Error)) return String(current)
  const code = (current as { code?: unknown }).code
  return typeof code === 'string' && !current.message.includes(code) ? `${code} (${current.message})` : current.message
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

// What a message shows of an error body: a problem's detail, else the text, at most 200 characters.
function describeBody(body: unknown): string {
  if (typeof body === 'object' && body !== null && typeof (body as { detail?: unknown }).detail === 'string')
    return (body as { detail: string }).detail
  const text = typeof body === 'string' ? body.trim() : JSON.stringify(body)
  return text.length > 200 ? `${text.slice(0, 200)}...` : text
}
