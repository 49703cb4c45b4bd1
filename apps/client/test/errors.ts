import { WeftError } from '@weft/errors'
import t from 'tap'
import { UsageError } from '../src/errors.js'
import {
  InvalidOptionError,
  InvalidResponseError,
  ReorgTooDeepError,
  WeftClientError,
  WeftHttpError,
  WeftNetworkError,
} from '../src/index.js'

t.test('an HTTP error keeps status, body and url, and the code the problem body names', async (t) => {
  const body = { type: 'about:blank', title: 'Not Found', status: 404, detail: 'no block abc', code: 'BLOCK_NOT_FOUND' }
  const error = new WeftHttpError(404, body, 'http://x/y', 'POST')
  t.equal(error.code, 'HTTP_ERROR')
  t.equal(error.serverCode, 'BLOCK_NOT_FOUND')
  t.equal(error.status, 404)
  t.equal(error.body, body)
  t.equal(error.url, 'http://x/y')
  t.equal(error.name, 'WeftHttpError')
  t.match(error.message, /POST http:\/\/x\/y answered 404: no block abc/)
})

t.test('the chainweb key-not-found body gives KEY_NOT_FOUND, anything else HTTP_<status>', async (t) => {
  t.equal(new WeftHttpError(404, { key: 'abc', reason: 'key not found' }, 'u').serverCode, 'KEY_NOT_FOUND')
  t.equal(new WeftHttpError(400, 'bad limit\n', 'u').serverCode, 'HTTP_400')
  t.match(new WeftHttpError(400, 'bad limit\n', 'u').message, /answered 400: bad limit$/)
  t.match(new WeftHttpError(502, '', 'u').message, /\(empty body\)/)
  t.match(new WeftHttpError(500, { other: true }, 'u').message, /\{"other":true\}/)
  t.equal(new WeftHttpError(500, null, 'u').serverCode, 'HTTP_500')
})

t.test('a network error names the innermost cause and keeps the chain', async (t) => {
  const socket = new Error('connect ECONNREFUSED 127.0.0.1:9')
  const error = new WeftNetworkError('http://127.0.0.1:9/info', { cause: new TypeError('fetch failed', { cause: socket }) })
  t.equal(error.code, 'NETWORK_ERROR')
  t.match(error.message, /ECONNREFUSED/)
  t.type(error.cause, TypeError)
  t.match(new WeftNetworkError('u', { cause: 'plain' }).message, /plain/)
})

t.test('the other errors carry their stable codes and say what was expected and received', async (t) => {
  const invalid = new InvalidResponseError('GET /info', ['/a bad', '/b bad'])
  t.equal(invalid.code, 'INVALID_RESPONSE')
  t.same(invalid.errors, ['/a bad', '/b bad'])
  t.match(invalid.message, /^Expected GET \/info to match its schema, received .*\/a bad; \/b bad/)
  const reorg = new ReorgTooDeepError(3, 2, 'h')
  t.equal(reorg.code, 'REORG_TOO_DEEP')
  t.equal(reorg.chain, 3)
  t.match(reorg.message, /^Expected the winning branch of chain 3 to contain h/)
  const option = new InvalidOptionError('depth', 'a non-negative integer', -1)
  t.equal(option.code, 'INVALID_CLIENT_OPTION')
  t.equal(option.option, 'depth')
  t.equal(option.message, 'Expected depth to be a non-negative integer, received -1')
  t.equal(new UsageError('x').code, 'CLI_USAGE')
})

t.test('every error is a WeftError and a WeftClientError, which cannot be thrown itself', async (t) => {
  for (const error of [
    new WeftHttpError(500, null, 'u'),
    new WeftNetworkError('u', { cause: 'x' }),
    new InvalidResponseError('x', []),
    new ReorgTooDeepError(0, 0, 'h'),
    new InvalidOptionError('o', 'e', 'r'),
    new UsageError('x'),
  ]) {
    t.ok(error instanceof WeftClientError && error instanceof WeftError, `${error.name} extends both bases`)
  }
  const Base = WeftClientError as unknown as new (code: string, message: string) => Error
  t.throws(() => new Base('HTTP_ERROR', 'x'), TypeError, 'the abstract base owns no code')
})
