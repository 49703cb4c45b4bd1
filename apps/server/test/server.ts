import { Agent, get, request } from 'node:http'
import { createServer } from 'node:net'
import { encodeHash } from '@weft/hash-text'
import { openStore } from '@weft/store'
import { until } from '@weft/test-kit'
import type { BlockPage } from '@weft/types'
import { pino } from 'pino'
import t from 'tap'
import { startServer } from '../src/index.js'
import { CLOSE_GRACE_MS } from '../src/server.js'
import { filledFolder, send, startNode } from './fixtures/node.js'

t.test('the producer grows the chains, and a restart on the same folder continues them', async (t) => {
  const data = t.testdir()
  const first = await startServer({ port: 0, data, network: 'test-singleton', blockDelay: 0.02, logLevel: 'silent' })
  t.equal(first.config.devnet, true, 'on by default for test-singleton')
  await until(() => (first.store.cut().get(0)?.height ?? 0) >= 5, 'chain 0 at height 5 on the first node')
  await first.close()
  await first.close()
  const reopened = await openStore({ path: data, network: 'test-singleton' })
  const head = reopened.cut().get(0)!
  await reopened.close()
  t.ok(head.height >= 5, `the store kept height ${head.height}`)
  const second = await startNode(t, { data, network: 'test-singleton', devnet: true, blockDelay: 0.02 })
  await until(() => second.store.cut().get(0)!.height >= head.height + 3, 'chain 0 three blocks higher on the second node')
  const response = await send(`${second.url}/chain/0.0/test-singleton/chain/0/block?minheight=${head.height}&maxheight=${head.height}`)
  t.match(
    (JSON.parse(response.body.toString()) as BlockPage).items.map((item) => item.header.hash),
    [head.hash.toString('base64url')],
    'the old head is still there',
  )
})

t.test('with --sync-writes the producer writes through fsync, and a restart finds every block', async (t) => {
  const data = t.testdir()
  const server = await startServer({ port: 0, data, network: 'test-singleton', blockDelay: 0.02, logLevel: 'silent', syncWrites: true })
  t.equal(server.config.syncWrites, true)
  await until(() => (server.store.cut().get(0)?.height ?? 0) >= 3, 'chain 0 at height 3')
  const head = server.store.cut().get(0)!
  await server.close()
  const reopened = await openStore({ path: data, network: 'test-singleton' })
  t.ok(reopened.cut().get(0)!.height >= head.height, 'the head written last is there')
  await reopened.close()
})

t.test('close ends the event streams and stops accepting', async (t) => {
  const server = await startServer({ port: 0, data: t.testdir(), network: 'development', devnet: false, logLevel: 'silent' })
  // Wrapped in an object: resolving with a bare promise would wait for the stream's end right here.
  const { ended } = await new Promise<{ ended: Promise<void> }>((resolve, reject) => {
    get(`${server.url}/chain/0.0/development/header/updates`, { agent: false }, (res) => {
      resolve({ ended: new Promise<void>((done) => res.on('end', () => done()).resume()) })
    }).on('error', reject)
  })
  await until(() => server.eventClients().header === 1, 'the header stream open')
  await server.close()
  await ended
  t.equal(server.eventClients().header, 0)
  await t.rejects(send(`${server.url}/health-check`), { code: 'ECONNREFUSED' })
})

t.test('a port in use, public or admin, is reported, and the store is released', async (t) => {
  const blocker = createServer()
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => blocker.close(() => resolve())))
  const port = (blocker.address() as { port: number }).port
  const data = t.testdir()
  await t.rejects(startServer({ port, data, network: 'development', devnet: false, logLevel: 'silent' }), { code: 'EADDRINUSE' })
  const store = await openStore({ path: data, network: 'development' })
  await store.close()
  t.pass('the folder can be opened again')
  await t.rejects(startServer({ profile: 'other' as never }), { code: 'INVALID_CONFIG' })
  // The admin address taken: nothing is left running, the public listener closed and the store released.
  const devnet = { port: 0, host: '127.0.0.1', data, network: 'development', devnet: true, logLevel: 'silent' } as const
  await t.rejects(startServer({ ...devnet, adminPort: port }), { code: 'EADDRINUSE' })
  const again = await openStore({ path: data, network: 'development' })
  const height = again.cut().get(0)?.height
  await again.close()
  t.equal(height, 0, 'the devnet producer never started')
})

t.test('the server listens on IPv6 and writes the peer in brackets', async (t) => {
  const server = await startNode(t, { data: t.testdir(), network: 'development', host: '::1' }).catch(() => undefined)
  if (server === undefined) {
    t.comment('no IPv6 loopback on this machine')
    return
  }
  t.match(server.url, /^http:\/\/\[::1\]:\d+$/)
  const response = await send(`${server.url}/health-check`)
  t.match(response.headers['x-peer-addr'], /^\[::1\]:\d+$/)
})

t.test('close waits for handlers whose clients already left before it closes the store', async (t) => {
  const data = await filledFolder(t, 'test-singleton', 300, 0)
  const lines: string[] = []
  const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) })
  const server = await startServer({ port: 0, data, network: 'test-singleton', devnet: false }, logger)
  lines.length = 0 // what the start logged (a warning about the disk's read-ahead, on some machines) is not the subject
  const base = `${server.url}/chain/0.0/test-singleton/chain/0`
  const tip = encodeHash(server.store.cut().get(0)!.hash)
  const genesisSide = (await send(`${base}/hash?limit=1&minheight=1`)).body.toString()
  const deep = JSON.parse(genesisSide).items[0] as string
  // Each request re-walks the whole chain from the tip to a cursor near genesis: slow enough to be running at close.
  const body = JSON.stringify({ upper: [tip] })
  const requests = Array.from({ length: 30 }, () => {
    const req = request(`${base}/hash/branch?limit=5&next=exclusive:${deep}`, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json' },
    })
    req.on('error', () => {})
    req.end(body)
    return req
  })
  await new Promise((resolve) => setTimeout(resolve, 30))
  for (const req of requests) req.destroy()
  await server.close()
  t.same(lines, [], 'no handler failed on a closed store')
})

t.test('close is prompt with a kept-alive event-stream connection', async (t) => {
  const server = await startServer({ port: 0, data: t.testdir(), network: 'development', devnet: false, logLevel: 'silent' })
  const agent = new Agent({ keepAlive: true })
  t.teardown(() => agent.destroy())
  // Settles with whether the answer came whole (the node ended the stream) or was cut (as the grace period cuts).
  const { ended } = await new Promise<{ ended: Promise<boolean> }>((resolve, reject) => {
    get(`${server.url}/chain/0.0/development/header/updates`, { agent }, (res) => {
      resolve({ ended: new Promise<boolean>((done) => res.on('close', () => done(res.complete)).resume()) })
    }).on('error', reject)
  })
  await until(() => server.eventClients().header === 1, 'the header stream open')
  const started = Date.now()
  await server.close()
  t.ok(
    await ended,
    `the stream ended whole, in ${Date.now() - started} ms: the node closed it, the grace period of ${CLOSE_GRACE_MS} ms did not cut it`,
  )
})
