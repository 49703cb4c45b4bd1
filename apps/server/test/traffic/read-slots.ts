import { request } from 'node:http'
import { until } from '@weft/test-kit'
import { pino } from 'pino'
import t from 'tap'
import { startServer } from '../../src/index.js'
import { filledFolder, send, startNode } from '../fixtures/node.js'
import { rawConnection } from '../fixtures/raw-client.js'

const dir = await filledFolder(t, 'development', 400, 0)
const base = '/chain/0.0/development'

const waitingOf = async (url: string): Promise<number> =>
  Number(/^weft_read_slots_waiting (\d+)$/m.exec((await send(`${url}/metrics`)).body.toString())?.[1])

t.test('with one slot, fifty concurrent chain reads wait their turn and are all served', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', concurrentReads: 1 })
  let most = 0
  let done = false
  const reads = Promise.all(
    Array.from({ length: 50 }, (_, index) => send(`${server.url}${base}/chain/${index % 20}/header?limit=360`).then((r) => r.status)),
  ).finally(() => {
    done = true
  })
  while (!done) most = Math.max(most, await waitingOf(server.url))
  t.same(new Set(await reads), new Set([200]), 'every read answered 200')
  t.ok(most > 0, `up to ${most} reads were seen waiting`)
  t.equal(await waitingOf(server.url), 0, 'none waits after')
  t.equal((await send(`${server.url}/health-check`)).status, 200)
})

t.test('a slow upload holds no slot: its body is received before it takes one', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', concurrentReads: 1 })
  const uploads = await Promise.all([1, 2, 3].map(() => rawConnection(server.port)))
  for (const upload of uploads)
    upload.socket.write(
      `POST ${base}/chain/0/hash/branch HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 12\r\n\r\n{"u`,
    )
  await new Promise((resolve) => setTimeout(resolve, 100))
  t.equal((await send(`${server.url}${base}/chain/0/hash?limit=5`)).status, 200, 'a read is served while three uploads trickle')
  for (const upload of uploads) upload.socket.end('pper":[]}')
  await until(() => uploads.every((upload) => upload.received().startsWith('HTTP/1.1 404')), 'a 404 for every upload')
  t.pass('the uploads are answered once complete (no upper bound matches nothing: 404)')
})

t.test('reads whose clients leave while they wait end quietly, and the slot passes on', async (t) => {
  const lines: Array<{ level: number }> = []
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line)) })
  const server = await startServer(
    { host: '127.0.0.1', port: 0, data: dir, network: 'development', devnet: false, concurrentReads: 1 },
    logger,
  )
  t.teardown(() => server.close())
  lines.length = 0 // what the start logged (a warning about the disk's read-ahead, on some machines) is not the subject
  const left = Array.from({ length: 20 }, (_, index) => {
    const req = request(`${server.url}${base}/chain/${index % 20}/block?limit=360`, { agent: false })
    req.on('error', () => {})
    req.end()
    return req
  })
  await new Promise((resolve) => setTimeout(resolve, 30))
  for (const req of left) req.destroy()
  await until(async () => (await waitingOf(server.url)) === 0, 'no read waiting')
  t.equal((await send(`${server.url}${base}/chain/0/block?limit=1`)).status, 200, 'the next read is served')
  t.same(
    lines.filter((line) => line.level >= 40),
    [],
    'no warning, no error',
  )
})
