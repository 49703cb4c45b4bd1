import t from 'tap'
import { backoffDelay, pause } from '../src/backoff.js'
import { IngestStoppedError } from '../src/errors.js'

t.test('the backoff doubles per failure up to its cap, with jitter between half and all of the step', async (t) => {
  const options = { baseMs: 100, maxMs: 1000 }
  t.equal(backoffDelay(1, options, 0), 50)
  t.equal(backoffDelay(1, options, 0.999999), 100)
  t.equal(backoffDelay(2, options, 0), 100)
  t.equal(backoffDelay(3, options, 1), 400)
  t.equal(backoffDelay(10, options, 1), 1000, 'capped')
  t.equal(backoffDelay(1e9, options, 0), 500, 'huge failure counts stay finite')
})

t.test('a pause ends after its time, or at once with IngestStoppedError when aborted', async (t) => {
  const controller = new AbortController()
  const started = Date.now()
  await pause(30, controller.signal)
  t.ok(Date.now() - started >= 25)
  const waiting = pause(10_000, controller.signal)
  controller.abort()
  await t.rejects(waiting, IngestStoppedError)
  await t.rejects(pause(1, controller.signal), { code: 'INGEST_STOPPED' }, 'an aborted signal stops it before it starts')
})
