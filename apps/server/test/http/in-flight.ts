import { createServer } from 'node:http'
import Koa from 'koa'
import t, { type Test } from 'tap'
import { InFlight } from '../../src/http/in-flight.js'
import { send } from '../fixtures/node.js'

// A real app whose one handler waits until the test releases it.
async function gatedApp(t: Test, requests: InFlight): Promise<{ url: string; release(): void; entered: Promise<void> }> {
  let release: () => void = () => {}
  const gate = new Promise<void>((resolve) => (release = resolve))
  let entered: () => void = () => {}
  const enteredPromise = new Promise<void>((resolve) => (entered = resolve))
  const app = new Koa()
  app.use(requests.middleware())
  app.use(async (ctx) => {
    entered()
    await gate
    ctx.body = 'done'
  })
  const server = createServer(app.callback())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    server.closeAllConnections()
    return new Promise<void>((resolve) => server.close(() => resolve()))
  })
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, release, entered: enteredPromise }
}

t.test('counts a handler until it ends, and idle resolves when the count reaches zero', async (t) => {
  const requests = new InFlight()
  t.equal(await requests.idle(10), true, 'idle at once with no handler')
  const app = await gatedApp(t, requests)
  const answer = send(app.url)
  await app.entered
  t.equal(requests.count, 1)
  const idle = requests.idle(10_000)
  app.release()
  t.equal(await idle, true)
  t.equal(requests.count, 0)
  t.equal((await answer).body.toString(), 'done')
})

t.test('idle gives up after its timeout while a handler still runs', async (t) => {
  const requests = new InFlight()
  const app = await gatedApp(t, requests)
  const answer = send(app.url)
  await app.entered
  t.equal(await requests.idle(20), false)
  t.equal(requests.count, 1)
  app.release()
  await answer
  t.equal(requests.count, 0)
})
