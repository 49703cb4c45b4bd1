import { WeftError } from '@weft/errors'
import t from 'tap'
import { ApiError, InvalidResponseError, WeftHttpError, WeftNetworkError } from '../src/index.js'

t.test('an HTTP error keeps status, body, url and method, the code the server named and its Retry-After', async (t) => {
  const body = { type: 'about:blank', title: 'Not Found', status: 404, detail: 'no block abc', code: 'BLOCK_NOT_FOUND' }
  const error = new WeftHttpError(404, body, 'http://x/y', 'POST', 3000)
  t.match(error, {
    code: 'HTTP_ERROR',
    serverCode: 'BLOCK_NOT_FOUND',
    status: 404,
    body,
    url: 'http://x/y',
    method: 'POST',
    retryAfterMs: 3000,
  })
  t.equal(error.name, 'WeftHttpError')
  t.equal(error.message, 'Expected a 2xx answer to POST http://x/y, received 404 (BLOCK_NOT_FOUND): no block abc')
})

t.test("chainweb's key-not-found body gives KEY_NOT_FOUND, anything else HTTP_<status>; the message shows the body", async (t) => {
  t.equal(new WeftHttpError(404, { key: 'abc', reason: 'key not found' }, 'u').serverCode, 'KEY_NOT_FOUND')
  const text = new WeftHttpError(400, 'bad limit\n', 'u')
  t.match(text, { serverCode: 'HTTP_400', method: 'GET', retryAfterMs: undefined })
  t.equal(text.message, 'Expected a 2xx answer to GET u, received 400 (HTTP_400): bad limit')
  t.equal(new WeftHttpError(502, '', 'u').message, 'Expected a 2xx answer to GET u, received 502 (HTTP_502)')
  t.match(new WeftHttpError(500, { other: true }, 'u').message, /: \{"other":true\}$/)
  t.match(new WeftHttpError(500, 'x'.repeat(300), 'u').message, /: x{200}\.\.\.$/)
  t.equal(new WeftHttpError(500, null, 'u').serverCode, 'HTTP_500')
})

t.test('a network error names the innermost cause, with its code when the message leaves it out', async (t) => {
  const socket = new Error('connect ECONNREFUSED 127.0.0.1:9')
  const error = new WeftNetworkError('http://127.0.0.1:9/info', { cause: new TypeError('fetch failed', { cause: socket }) })
  t.match(error, { code: 'NETWORK_ERROR', url: 'http://127.0.0.1:9/info' })
  t.equal(error.message, 'Expected an answer from http://127.0.0.1:9/info, received none: connect ECONNREFUSED 127.0.0.1:9')
  t.type(error.cause, TypeError)
  const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })
  t.match(new WeftNetworkError('u', { cause: reset }).message, /none: ECONNRESET \(socket hang up\)$/)
  t.match(new WeftNetworkError('u', { cause: 'plain' }).message, /none: plain$/)
})

t.test('an invalid response says what was expected and received, and where a schema failed', async (t) => {
  const invalid = new InvalidResponseError('GET /info to match its schema', 'a body where /a bad', ['/a bad', '/b bad'])
  t.equal(invalid.code, 'INVALID_RESPONSE')
  t.same(invalid.errors, ['/a bad', '/b bad'])
  t.equal(invalid.message, 'Expected GET /info to match its schema, received a body where /a bad')
  t.same(new InvalidResponseError('x', 'y').errors, [])
})

t.test('every error is a WeftError and an ApiError, which cannot be thrown itself', async (t) => {
  for (const error of [new WeftHttpError(500, null, 'u'), new WeftNetworkError('u', { cause: 'x' }), new InvalidResponseError('x', 'y')]) {
    t.ok(error instanceof ApiError && error instanceof WeftError, `${error.name} extends both bases`)
  }
  const Base = ApiError as unknown as new (code: string, message: string) => Error
  t.throws(() => new Base('HTTP_ERROR', 'x'), TypeError)
})
