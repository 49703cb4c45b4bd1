import t from 'tap'
import { InvalidResponseError, isTransient, isTransientStatus, retryAfterMs, WeftHttpError, WeftNetworkError } from '../src/index.js'

t.test('no answer, 5xx and 429 are worth a retry; other statuses and errors are not', async (t) => {
  t.ok(isTransient(new WeftNetworkError('u', { cause: new Error('reset') })))
  t.ok(isTransient(new WeftHttpError(503, '', 'u')))
  t.ok(isTransient(new WeftHttpError(429, '', 'u')))
  t.notOk(isTransient(new WeftHttpError(404, '', 'u')))
  t.notOk(isTransient(new InvalidResponseError('a page', 'none')))
  t.notOk(isTransient(new Error('bug')))
  t.same([200, 400, 404, 428, 429, 499, 500, 503, 599].map(isTransientStatus), [false, false, false, false, true, false, true, true, true])
})

t.test('Retry-After is read as seconds or as an HTTP date, never below zero', async (t) => {
  const now = Date.parse('2025-01-01T00:00:00Z')
  t.equal(retryAfterMs('3', now), 3000)
  t.equal(retryAfterMs([' 0 '], now), 0)
  t.equal(retryAfterMs('Wed, 01 Jan 2025 00:00:10 GMT', now), 10_000)
  t.equal(retryAfterMs('Tue, 31 Dec 2024 23:59:00 GMT', now), 0, 'a date past waits nothing')
  for (const value of [undefined, null, '', 'soon', [] as string[]]) t.equal(retryAfterMs(value, now), undefined, JSON.stringify(value))
  t.ok((retryAfterMs(new Date(Date.now() + 60_000).toUTCString()) ?? 0) > 50_000, 'now is the clock by default')
})
