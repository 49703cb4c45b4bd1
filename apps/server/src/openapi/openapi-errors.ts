import { STATUS_CODES } from 'node:http'
import type { AnsweredCode, ErrorBody } from '../profile/error-table.js'
import type { ProfileRules } from '../profile/profiles.js'
import { examplesOf } from './openapi-examples.js'
import { ref } from './openapi-schemas.js'

type Json = Record<string, unknown>

/** What each code answers for, in the words of the README's error table. */
const causes: Readonly<Record<AnsweredCode, string>> = {
  NOT_FOUND: 'unknown path, network, API version or chain id',
  METHOD_NOT_ALLOWED: 'the path does not answer this method (`allow` lists those it does)',
  NOT_ACCEPTABLE: 'the Accept header names nothing the endpoint produces',
  PAYLOAD_TOO_LARGE: 'a request body over the limit (2 MiB by default)',
  UNSUPPORTED_MEDIA_TYPE: 'a POST without `content-type: application/json`',
  INVALID_QUERY: "`limit` or `minheight` (or the cut's `maxheight`) not a non-negative integer",
  INVALID_MAXHEIGHT: "a page's `maxheight` not a non-negative integer",
  INVALID_CURSOR: '`next` not `inclusive:` or `exclusive:` and a hash (on pages of the transaction index: not `inclusive:` and a token)',
  INVALID_BODY: "a body that is not JSON, or not the endpoint's schema",
  INVALID_HASH: 'a malformed hash in the path',
  TOO_MANY_BOUNDS: 'more than 32 distinct upper or lower bounds',
  NO_MATCHING_BLOCKS: 'no block matches the query',
  CURSOR_NOT_FOUND: '`next` names an unknown block, or one of another chain',
  BLOCK_NOT_FOUND: 'an unknown upper bound or header',
  PAYLOAD_NOT_FOUND: 'an unknown payload',
  TOO_MANY_CONNECTIONS: 'the node holds `--max-connections` connections (this one is closed after the answer)',
  TOO_MANY_REQUESTS: 'the client address has `--max-per-client` requests running',
  TOO_MANY_STREAMS: 'the client address holds `--max-streams-per-client` event streams',
  MALFORMED_REQUEST: 'HTTP that node cannot parse, or HTTP/1.1 without Host',
  HEADERS_TOO_LARGE: 'request headers over 16 KiB',
  REQUEST_TIMEOUT:
    'the headers (`--headers-timeout`) or the whole request (`--request-timeout`) arrived too slowly; the connection is closed',
  NO_PACT_STATE: 'an endpoint that needs Pact state (`/send`, `/local`, `/spv`, `/coins`): Weft holds blocks and outputs, no Pact database',
  INDEX_DISABLED: 'the node runs with `--no-index`: it keeps no transaction index',
  INDEX_CATCHING_UP: 'the transaction index is still catching up on older blocks and cannot answer this completely yet (`Retry-After`)',
  INVALID_INDEX_QUERY: 'a malformed request key, account, name or `next` token',
  CURSOR_OUT_OF_RANGE: '`next` is the token of another query',
  LISTEN_TIMEOUT: 'the request key did not reach the winning branch within the wait (180 s)',
  TX_NOT_FOUND: 'no stored transaction with the request key (chainweb-data: or no `requestkey` given)',
  STORE_DAMAGED: 'a read met a damaged table file of the store (logged once, `/ready` 503): stop the node and run `weft-server --repair`',
  INTERNAL_ERROR: 'anything unexpected (logged; no detail in the answer)',
}

/** A message of each code as the server writes it (the `detail` of a problem, the text of a plain answer). */
const messages: Readonly<Record<AnsweredCode, string>> = {
  NOT_FOUND: 'No resource at /chain/0.0/development/chain/99/block',
  METHOD_NOT_ALLOWED: 'Method DELETE is not allowed here; allowed: GET, HEAD, OPTIONS',
  NOT_ACCEPTABLE: 'Expected an Accept header matching application/json, received "text/csv"',
  PAYLOAD_TOO_LARGE: 'Request bodies are limited to 2097152 bytes',
  UNSUPPORTED_MEDIA_TYPE: 'Expected content-type application/json, received none',
  INVALID_QUERY: 'Expected query parameter limit to be a non-negative integer, received "x"',
  INVALID_MAXHEIGHT: 'Expected query parameter maxheight to be a non-negative integer, received "x"',
  INVALID_CURSOR: 'Expected a cursor inclusive:<hash> or exclusive:<hash>, received "x"',
  INVALID_BODY: 'Expected upper[0] to be a hash: 43 base64url characters (32 bytes), one trailing = tolerated, received "x"',
  INVALID_HASH: 'Expected a hash of 43 base64url characters, received "x"',
  TOO_MANY_BOUNDS: 'Expected at most 32 distinct upper bounds, received 33',
  NO_MATCHING_BLOCKS: 'No block matches the query',
  CURSOR_NOT_FOUND: 'Expected a stored block for the cursor, found none',
  BLOCK_NOT_FOUND: 'Expected a stored upper bound, found none',
  PAYLOAD_NOT_FOUND: 'Expected a stored payload, found none',
  TOO_MANY_CONNECTIONS: 'Expected at most 10000 open connections to the node, received one more: retry in 1 s',
  TOO_MANY_REQUESTS: 'Expected at most 256 requests at once from 127.0.0.1, received one more: retry in 1 s',
  TOO_MANY_STREAMS: 'Expected at most 2048 open event streams from 127.0.0.1, received one more: retry in 5 s',
  MALFORMED_REQUEST: 'Expected a Host header in an HTTP/1.1 request, received none',
  HEADERS_TOO_LARGE: 'Expected request headers of at most 16 KiB, received more',
  REQUEST_TIMEOUT: 'Expected the whole request within the time the node allows, received it too slowly',
  NO_PACT_STATE:
    'POST /chainweb/0.0/development/chain/{chain}/pact/api/v1/send needs Pact state, and this node (Weft) holds none: it serves blocks, payloads and their outputs only. Send this request to a chainweb-node',
  INDEX_DISABLED:
    'Expected a store that keeps the transaction index, but this one was opened without it (--no-index): open it with the index to catch it up',
  INDEX_CATCHING_UP:
    'Expected a complete transaction index to answer request key x, but it is catching up on older blocks (41% done): ask again later',
  INVALID_INDEX_QUERY: 'Expected a request key of 43 base64url characters, received "x"',
  CURSOR_OUT_OF_RANGE: 'Expected a cursor of this query, received one of another',
  LISTEN_TIMEOUT: 'Request key x did not reach the winning branch within 180 s',
  TX_NOT_FOUND: 'Tx not found',
  STORE_DAMAGED:
    'Expected whole table files in the store in /var/lib/weft, but LevelDB found one damaged (Corruption: corrupted compressed block contents): stop the node and repair the store (weft-server --repair)',
  INTERNAL_ERROR: 'The server failed to answer this request',
}

/**
 * The codes an operation may answer in a profile: its own, 405, 500, a damaged store's 503 (where it
 * has codes of its own: the four that have none, health, readiness, metrics and the status page, read no stored block), the limits (a stream's own
 * limit, `TOO_MANY_STREAMS`, stands for the requests') and a late request; `NO_MATCHING_BLOCKS`
 * only where no match is an error. Malformed HTTP and oversized headers are answered before any
 * operation is known: the document's description names them.
 */
export function codesOf(rules: ProfileRules, own: readonly AnsweredCode[]): AnsweredCode[] {
  const damaged: AnsweredCode[] = own.length > 0 ? ['STORE_DAMAGED'] : []
  const limits: AnsweredCode[] = ['TOO_MANY_CONNECTIONS', ...(own.includes('TOO_MANY_STREAMS') ? [] : ['TOO_MANY_REQUESTS' as const])]
  const codes = [...own, 'METHOD_NOT_ALLOWED', 'REQUEST_TIMEOUT', ...limits, ...damaged, 'INTERNAL_ERROR'] as AnsweredCode[]
  return codes.filter((code) => code !== 'NO_MATCHING_BLOCKS' || rules.noMatch === 'problem-404')
}

// A 429 says when to retry.
const retryAfter: Json = {
  'Retry-After': { description: 'seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } },
}

function contentOf(body: ErrorBody, status: number, codes: readonly AnsweredCode[], rules: ProfileRules): Json | undefined {
  const [first = 'INTERNAL_ERROR'] = codes
  if (body === 'problem') {
    const schema = { allOf: [ref('Problem'), { properties: { status: { const: status }, code: { enum: codes } } }] }
    const example = { type: 'about:blank', title: STATUS_CODES[status], status, detail: messages[first], code: first }
    return { 'application/problem+json': { schema, example } }
  }
  if (body === 'text') return { 'text/plain': { schema: { type: 'string' }, example: `${messages[first]}\n` } }
  if (body === 'key-reason') return { 'application/json': { schema: ref('KeyNotFound'), example: examplesOf(rules).keyNotFound } }
  return undefined
}

/**
 * The error responses of an operation, by status, as the profile's error table answers its codes:
 * one media type per body kind, each status describing its codes and their causes. A status whose
 * answer may be empty says so with `x-weft-empty-body`.
 */
export function errorResponses(rules: ProfileRules, own: readonly AnsweredCode[]): Record<string, Json> {
  const byStatus = new Map<number, Map<ErrorBody, AnsweredCode[]>>()
  for (const code of codesOf(rules, own)) {
    const { status, body } = rules.errors[code]
    const bodies = byStatus.get(status) ?? new Map<ErrorBody, AnsweredCode[]>()
    bodies.set(body, [...(bodies.get(body) ?? []), code])
    byStatus.set(status, bodies)
  }
  const responses: Record<string, Json> = {}
  for (const [status, bodies] of [...byStatus].sort(([a], [b]) => a - b)) {
    const codes = [...bodies.values()].flat()
    const description = `${STATUS_CODES[status]}: ${codes.map((code) => `\`${code}\` ${causes[code]}`).join('; ')}`
    const content = Object.assign({}, ...[...bodies].map(([body, bodyCodes]) => contentOf(body, status, bodyCodes, rules) ?? {}))
    responses[String(status)] = {
      description,
      ...(status === 429 || status === 503 ? { headers: retryAfter } : {}),
      ...(Object.keys(content).length > 0 ? { content } : {}),
      ...(bodies.has('empty') ? { 'x-weft-empty-body': true } : {}),
    }
  }
  return responses
}
