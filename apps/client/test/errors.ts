import t from 'tap'
import { InvalidResponseError, ReorgTooDeepError, UsageError, WeftHttpError, WeftNetworkError } from '../src/index.js'

t.test('an HTTP error takes its code from a problem body and keeps status, body and url', async (t) => {
  const body = { type: 'about:blank', title: 'Not Found', status: 404, detail: 'no block abc', code: 'BLOCK_NOT_FOUND' }
  const error = new WeftHttpError(404, body, 'http://x/y', 'POST')
  t.equal(error.code, 'BLOCK_NOT_FOUND')
  t.equal(error.status, 404)
  t.equal(error.body, body)
  t.equal(error.url, 'http://x/y')
  t.equal(error.name, 'WeftHttpError')
  t.match(error.message, /POST http:\/\/x\/y answered 404: no block abc/)
})

t.test('the chainweb key-not-found body gives KEY_NOT_FOUND, anything else HTTP_<status>', async (t) => {
  t.equal(new WeftHttpError(404, { key: 'abc', reason: 'key not found' }, 'u').code, 'KEY_NOT_FOUND')
  t.equal(new WeftHttpError(400, 'bad limit\n', 'u').code, 'HTTP_400')
  t.match(new WeftHttpError(400, 'bad limit\n', 'u').message, /answered 400: bad limit$/)
  t.match(new WeftHttpError(502, '', 'u').message, /\(empty body\)/)
  t.match(new WeftHttpError(500, { other: true }, 'u').message, /\{"other":true\}/)
  t.equal(new WeftHttpError(500, null, 'u').code, 'HTTP_500')
})

t.test('a network error names the innermost cause and keeps the chain', async (t) => {
  const socket = new Error('connect ECONNREFUSED 127.0.0.1:9')
  const error = new WeftNetworkError('http://127.0.0.1:9/info', { cause: new TypeError('fetch failed', { cause: socket }) })
  t.equal(error.code, 'NETWORK_ERROR')
  t.match(error.message, /ECONNREFUSED/)
  t.type(error.cause, TypeError)
  t.match(new WeftNetworkError('u', { cause: 'plain' }).message, /plain/)
})

t.test('the other errors carry their stable codes', async (t) => {
  const invalid = new InvalidResponseError('GET /info', ['/a bad', '/b bad'])
  t.equal(invalid.code, 'INVALID_RESPONSE')
  t.same(invalid.errors, ['/a bad', '/b bad'])
  const reorg = new ReorgTooDeepError(3, 2, 'h')
  t.equal(reorg.code, 'REORG_TOO_DEEP')
  t.equal(reorg.chain, 3)
  t.equal(new UsageError('x').code, 'USAGE')
})
