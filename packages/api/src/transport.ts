import { WeftHttpError } from './errors.js'
import type { HeaderReader } from './profiles.js'
import { retryAfterMs } from './transient.js'

/** One request to a node. */
export interface WireRequest {
  readonly method?: 'GET' | 'POST'
  readonly url: string
  /** JSON text, sent with `content-type: application/json`. */
  readonly body?: string
  /** Default `application/json`. */
  readonly accept?: string
  readonly signal?: AbortSignal | undefined
}

/** A 2xx answer, its body whole. */
export interface WireAnswer {
  readonly status: number
  /** A response header by its lower-case name. */
  readonly header: HeaderReader
  readonly body: Uint8Array
}

/**
 * A transport: sends one request and resolves with its 2xx answer; throws `WeftHttpError` (made by
 * `httpErrorOf`) for another status, `WeftNetworkError` when no answer came, or the transport's own
 * error when the caller's signal cancelled it. `@weft/client` sends with `fetch`, `@weft/ingest` with
 * `node:http`; the reads of this package work over either.
 */
export type Send = (request: WireRequest) => Promise<WireAnswer>

/** The `WeftHttpError` of an answer outside 2xx: its body parsed when it is JSON (else its text), its `Retry-After`. */
export function httpErrorOf(method: string, url: string, status: number, header: HeaderReader, body: Uint8Array): WeftHttpError {
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')
  return new WeftHttpError(status, errorBody(text, header('content-type')), url, method, retryAfterMs(header('retry-after')))
}

// An error body is JSON when it says so, or looks like an object (chainweb's key-not-found body), and parses; else its text.
function errorBody(text: string, contentType: string | undefined): unknown {
  if (!/json/i.test(contentType ?? '') && !text.trimStart().startsWith('{')) return text
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}
