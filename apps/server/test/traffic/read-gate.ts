import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fill } from '@weft/devnet'
import { createIngest } from '@weft/ingest'
import { openStore } from '@weft/store'
import { eventually, freshFolder, until } from '@weft/test-kit'
import Koa from 'koa'
import t from 'tap'
import { readGate } from '../../src/traffic/read-gate.js'
import { startNode } from '../fixtures/node.js'
import { quickIngest, startProxy } from '../fixtures/upstreams.js'

t.test('while ingest is behind at most the given number of requests run at once; caught up, all of them; streams never wait', async (t) => {
  const data = freshFolder(t)
  const seeded = await openStore({ path: data, network: 'development' })
  await fill(seeded, { blocks: 400, seed: 'gate' })
  await seeded.close()
  const upstream = await startNode(t, { data })
  let slow = true
  const proxy = await startProxy(t, upstream.url, {
    intercept: async (req) => {
      if (slow && /\/block\?/.test(req.url ?? '')) await new Promise((resolve) => setTimeout(resolve, 300))
      return false
    },
  })
  const store = await openStore({ path: freshFolder(t), network: 'development', cutPolicy: 'adopted' })
  t.teardown(() => store.close())
  const ingest = createIngest({ ...quickIngest, windowBlocks: 100, store, upstreams: [proxy.url] })
  t.teardown(() => ingest.stop())
  await ingest.start()

  // Each request is held inside the gate until the test lets the burst go, so that what runs at once
  // is counted while all of them wait, however slowly a busy machine sends them.
  const app = new Koa()
  let running = 0
  let most = 0
  let letGo = (): void => {}
  let held = new Promise<void>((resolve) => {
    letGo = resolve
  })
  app.use(readGate(ingest, 3, (path) => path === '/stream'))
  app.use(async (ctx) => {
    running += 1
    most = Math.max(most, running)
    await held
    running -= 1
    ctx.body = 'ok'
  })
  const server = createServer(app.callback())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => server.close())
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  // Sends ten requests, waits until `expected` run at once (and a moment more, for any past it),
  // then lets them all go and answers the most that ran at once.
  const burst = async (path: string, expected: number): Promise<number> => {
    most = 0
    held = new Promise<void>((resolve) => {
      letGo = resolve
    })
    const answers = Promise.all(Array.from({ length: 10 }, () => fetch(`${url}${path}`).then((response) => response.text())))
    await until(() => running >= expected, `${expected} requests running at once`)
    await new Promise((resolve) => setTimeout(resolve, 100))
    letGo()
    await answers
    return most
  }

  t.equal(ingest.status().phase, 'copying')
  t.equal(await burst('/chain/0.0/development/cut', 3), 3, 'three at once while copying')
  t.equal(await burst('/stream', 10), 10, 'event streams are never held')
  slow = false
  t.ok(await eventually(() => ingest.status().ready && ingest.status().phase === 'following'), 'caught up')
  // Past the gate's reading of ingest's state (100 ms) taken while it was behind.
  await new Promise((resolve) => setTimeout(resolve, 150))
  t.equal(await burst('/chain/0.0/development/cut', 10), 10, 'all at once when caught up')
})
