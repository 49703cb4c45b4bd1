import type { Profile } from '@weft/types'

/** How an error's answer is written: an RFC 9457 problem, a line of text, `{"key","reason"}`, or nothing. */
export type ErrorBody = 'problem' | 'text' | 'key-reason' | 'empty'

/** The answer to one error code in one profile. */
export interface ErrorAnswer {
  readonly status: number
  readonly body: ErrorBody
}

/**
 * Every code the server answers with. The server owns most; `INVALID_CURSOR` is `@weft/cursor`'s,
 * `CURSOR_NOT_FOUND`, `INDEX_DISABLED` and `STORE_DAMAGED` `@weft/store`'s, `INVALID_INDEX_QUERY` and `CURSOR_OUT_OF_RANGE` `@weft/index`'s, `BLOCK_NOT_FOUND` and `TOO_MANY_BOUNDS` `@weft/traversal`'s:
 * their errors are answered as thrown, by code. An error with any other code is a logged 500.
 * `MALFORMED_REQUEST`, `HEADERS_TOO_LARGE` and `REQUEST_TIMEOUT` are answered outside Koa, to what
 * node's HTTP parser refused or cut (traffic/socket-answers.ts), from the same rows.
 */
export const answeredCodes = [
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'NOT_ACCEPTABLE',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'INVALID_QUERY',
  'INVALID_MAXHEIGHT',
  'INVALID_CURSOR',
  'INVALID_BODY',
  'INVALID_HASH',
  'TOO_MANY_BOUNDS',
  'NO_MATCHING_BLOCKS',
  'CURSOR_NOT_FOUND',
  'BLOCK_NOT_FOUND',
  'PAYLOAD_NOT_FOUND',
  'TOO_MANY_CONNECTIONS',
  'TOO_MANY_REQUESTS',
  'TOO_MANY_STREAMS',
  'MALFORMED_REQUEST',
  'HEADERS_TOO_LARGE',
  'REQUEST_TIMEOUT',
  'NO_PACT_STATE',
  'INDEX_DISABLED',
  'INDEX_CATCHING_UP',
  'INVALID_INDEX_QUERY',
  'CURSOR_OUT_OF_RANGE',
  'LISTEN_TIMEOUT',
  'TX_NOT_FOUND',
  'STORE_DAMAGED',
  'INTERNAL_ERROR',
] as const

/** A code the server answers with. */
export type AnsweredCode = (typeof answeredCodes)[number]

/** A profile's answers, one per code. */
export type ErrorTable = Readonly<Record<AnsweredCode, ErrorAnswer>>

/** The spec profile: problem bodies throughout. */
const spec: ErrorTable = {
  NOT_FOUND: { status: 404, body: 'problem' },
  METHOD_NOT_ALLOWED: { status: 405, body: 'problem' },
  NOT_ACCEPTABLE: { status: 406, body: 'problem' },
  PAYLOAD_TOO_LARGE: { status: 413, body: 'problem' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, body: 'problem' },
  INVALID_QUERY: { status: 400, body: 'problem' },
  INVALID_MAXHEIGHT: { status: 404, body: 'problem' },
  INVALID_CURSOR: { status: 404, body: 'problem' },
  INVALID_BODY: { status: 400, body: 'problem' },
  INVALID_HASH: { status: 400, body: 'problem' },
  TOO_MANY_BOUNDS: { status: 400, body: 'problem' },
  NO_MATCHING_BLOCKS: { status: 404, body: 'problem' },
  CURSOR_NOT_FOUND: { status: 404, body: 'problem' },
  BLOCK_NOT_FOUND: { status: 404, body: 'problem' },
  PAYLOAD_NOT_FOUND: { status: 404, body: 'problem' },
  TOO_MANY_CONNECTIONS: { status: 429, body: 'problem' },
  TOO_MANY_REQUESTS: { status: 429, body: 'problem' },
  TOO_MANY_STREAMS: { status: 429, body: 'problem' },
  MALFORMED_REQUEST: { status: 400, body: 'problem' },
  HEADERS_TOO_LARGE: { status: 431, body: 'problem' },
  REQUEST_TIMEOUT: { status: 408, body: 'problem' },
  NO_PACT_STATE: { status: 501, body: 'problem' },
  INDEX_DISABLED: { status: 501, body: 'problem' },
  INDEX_CATCHING_UP: { status: 503, body: 'problem' },
  INVALID_INDEX_QUERY: { status: 400, body: 'problem' },
  CURSOR_OUT_OF_RANGE: { status: 400, body: 'problem' },
  LISTEN_TIMEOUT: { status: 504, body: 'problem' },
  TX_NOT_FOUND: { status: 404, body: 'problem' },
  STORE_DAMAGED: { status: 503, body: 'problem' },
  INTERNAL_ERROR: { status: 500, body: 'problem' },
}

/**
 * The chainweb profile: plain text, 400 for a malformed `next` or `maxheight`, `{"key","reason"}` for an
 * unknown hash, an empty 404 for an unknown chain or route (as the real node). `NO_MATCHING_BLOCKS` is never thrown there (no match is an empty page), but has its row.
 */
const chainweb: ErrorTable = {
  NOT_FOUND: { status: 404, body: 'empty' },
  METHOD_NOT_ALLOWED: { status: 405, body: 'text' },
  NOT_ACCEPTABLE: { status: 406, body: 'text' },
  PAYLOAD_TOO_LARGE: { status: 413, body: 'text' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, body: 'text' },
  INVALID_QUERY: { status: 400, body: 'text' },
  INVALID_MAXHEIGHT: { status: 400, body: 'text' },
  INVALID_CURSOR: { status: 400, body: 'text' },
  INVALID_BODY: { status: 400, body: 'text' },
  INVALID_HASH: { status: 400, body: 'text' },
  TOO_MANY_BOUNDS: { status: 400, body: 'text' },
  NO_MATCHING_BLOCKS: { status: 404, body: 'text' },
  CURSOR_NOT_FOUND: { status: 404, body: 'key-reason' },
  BLOCK_NOT_FOUND: { status: 404, body: 'key-reason' },
  PAYLOAD_NOT_FOUND: { status: 404, body: 'key-reason' },
  TOO_MANY_CONNECTIONS: { status: 429, body: 'text' },
  TOO_MANY_REQUESTS: { status: 429, body: 'text' },
  TOO_MANY_STREAMS: { status: 429, body: 'text' },
  MALFORMED_REQUEST: { status: 400, body: 'text' },
  HEADERS_TOO_LARGE: { status: 431, body: 'text' },
  REQUEST_TIMEOUT: { status: 408, body: 'text' },
  NO_PACT_STATE: { status: 501, body: 'text' },
  INDEX_DISABLED: { status: 501, body: 'text' },
  INDEX_CATCHING_UP: { status: 503, body: 'text' },
  INVALID_INDEX_QUERY: { status: 400, body: 'text' },
  CURSOR_OUT_OF_RANGE: { status: 400, body: 'text' },
  // The node's own 504 (servant's err504): no body.
  LISTEN_TIMEOUT: { status: 504, body: 'empty' },
  TX_NOT_FOUND: { status: 404, body: 'text' },
  STORE_DAMAGED: { status: 503, body: 'text' },
  INTERNAL_ERROR: { status: 500, body: 'text' },
}

/** The error table of each profile (docs/wire/errors.md; the profile table's rows about errors). */
export const errorTables: Readonly<Record<Profile, ErrorTable>> = { spec, chainweb }

/** The answer a table gives to `code`, or undefined when the code is not one the server answers with. */
export function answerOf(table: ErrorTable, code: string): ErrorAnswer | undefined {
  return Object.hasOwn(table, code) ? table[code as AnsweredCode] : undefined
}
