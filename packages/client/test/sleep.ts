import t from 'tap'
import { sleep } from '../src/sleep.js'

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
