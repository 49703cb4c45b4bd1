import t from 'tap'
import { isTransient, WeftHttpError, WeftNetworkError } from '../src/index.js'
import { sleep } from '../src/retry.js'

t.test('no answer, 5xx and 429 are worth a retry; other statuses and errors are not', async (t) => {
  t.ok(isTransient(new WeftNetworkError('u', { cause: new Error('reset') })))
  t.ok(isTransient(new WeftHttpError(503, '', 'u')))
  t.ok(isTransient(new WeftHttpError(429, '', 'u')))
  t.notOk(isTransient(new WeftHttpError(404, '', 'u')))
  t.notOk(isTransient(new Error('bug')))
})

t.test('sleep waits, and an abort ends it early or at once', async (t) => {
  let started = Date.now()
  await sleep(30)
  t.ok(Date.now() - started >= 25, 'slept about as long as asked')
  const controller = new AbortController()
  started = Date.now()
  setTimeout(() => controller.abort(), 10)
  await sleep(10_000, controller.signal)
  t.ok(Date.now() - started < 5000, 'woke on abort')
  await sleep(10_000, controller.signal)
  t.pass('an already aborted signal returns at once')
  const unused = new AbortController()
  await sleep(5, unused.signal)
  t.pass('a signal that never aborts lets the timer end the sleep')
})
