import { spawn } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { Agent, get, request } from 'node:http'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { encodeHash } from '@weft/hash-text'
import { openStore } from '@weft/store'
import type { BlockPage } from '@weft/types'
import { pino } from 'pino'
import t from 'tap'
import { type CliIo, runCli, startServer } from '../src/index.js'
import { CLOSE_GRACE_MS } from '../src/server.js'
import { filledFolder, send, startNode } from './fixtures/node.js'

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

t.test('the producer grows the chains, and a restart on the same folder continues them', async (t) => {
  const data = t.testdir()
  const first = await startServer({ port: 0, data, network: 'test-singleton', blockDelay: 0.02, logLevel: 'silent' })
  t.equal(first.config.devnet, true, 'on by default for test-singleton')
  await until(() => (first.store.cut().get(0)?.height ?? 0) >= 5)
  await first.close()
  await first.close()
  const reopened = await openStore({ path: data, network: 'test-singleton' })
  const head = reopened.cut().get(0)!
  await reopened.close()
  t.ok(head.height >= 5, `the store kept height ${head.height}`)
  const second = await startNode(t, { data, network: 'test-singleton', devnet: true, blockDelay: 0.02 })
  await until(() => second.store.cut().get(0)!.height >= head.height + 3)
  const response = await send(`${second.url}/chain/0.0/test-singleton/chain/0/block?minheight=${head.height}&maxheight=${head.height}`)
  t.match(
    (JSON.parse(response.body.toString()) as BlockPage).items.map((item) => item.header.hash),
    [head.hash.toString('base64url')],
    'the old head is still there',
  )
})

t.test('close ends the event streams and stops accepting', async (t) => {
  const server = await startServer({ port: 0, data: t.testdir(), network: 'development', devnet: false, logLevel: 'silent' })
  // Wrapped in an object: resolving with a bare promise would wait for the stream's end right here.
  const { ended } = await new Promise<{ ended: Promise<void> }>((resolve, reject) => {
    get(`${server.url}/chain/0.0/development/header/updates`, { agent: false }, (res) => {
      resolve({ ended: new Promise<void>((done) => res.on('end', () => done()).resume()) })
    }).on('error', reject)
  })
  await until(() => server.eventClients().header === 1)
  await server.close()
  await ended
  t.equal(server.eventClients().header, 0)
  await t.rejects(send(`${server.url}/health-check`), { code: 'ECONNREFUSED' })
})

t.test('a port in use is reported, and the store is released', async (t) => {
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

function captureIo() {
  let out = ''
  let err = ''
  const signals = new EventEmitter()
  let resolveExit: (code: number) => void = () => {}
  const exited = new Promise<number>((resolve) => (resolveExit = resolve))
  const io: CliIo = {
    stdout: (text) => (out += text),
    stderr: (text) => (err += text),
    onSignal: (signal, handler) => signals.once(signal, handler),
    exit: (code) => resolveExit(code),
  }
  return { io, signals, exited, out: () => out, err: () => err }
}

t.test('the command prints help', async (t) => {
  const run = captureIo()
  t.equal(await runCli(['--help'], {}, run.io), undefined)
  t.equal(await run.exited, 0)
  t.match(run.out(), /^Usage: weft-server/)
})

t.test('the command refuses a bad flag, and a bad setting, with exit code 1', async (t) => {
  for (const [argv, env, message] of [
    [['--network', 'nowhere'], {}, /^weft-server: Expected network/],
    [['--port'], {}, /^weft-server: .*--port/],
    [[], { WEFT_FORK_RATE: '2' }, /^weft-server: Expected fork rate/],
  ] as const) {
    const run = captureIo()
    await runCli(argv, env, run.io)
    t.equal(await run.exited, 1)
    t.match(run.err(), message)
  }
})

t.test('the command says where it listens on its first line and shuts down on SIGINT', async (t) => {
  const run = captureIo()
  const running = await runCli(
    ['--port', '0', '--profile', 'chainweb'],
    { WEFT_DATA: t.testdir(), WEFT_NETWORK: 'mainnet01', WEFT_LOG_LEVEL: 'silent' },
    run.io,
  )
  t.match(run.out(), /^Weft node \(mainnet01, chainweb profile\) listening on http:\/\/127\.0\.0\.1:\d+\n$/)
  t.equal((await send(`${running!.url}/chainweb/0.0/mainnet01/cut`)).status, 200)
  run.signals.emit('SIGINT')
  run.signals.emit('SIGTERM')
  t.equal(await run.exited, 0)
  t.match(run.out(), /SIGINT: shutting down\n$/)
  await t.rejects(send(`${running!.url}/health-check`, {}), { code: 'ECONNREFUSED' })
})

const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url))

function collect(stream: NodeJS.ReadableStream): () => string {
  let text = ''
  stream.setEncoding('utf8')
  stream.on('data', (chunk: string) => (text += chunk))
  return () => text
}

t.test('the bin says where it listens on its first line, logs each request, and stops on SIGTERM', async (t) => {
  // Same loader flags as this test process, so the TypeScript source runs as the built bin would.
  const child = spawn(process.execPath, [...process.execArgv, cli, '--port', '0', '--network', 'test-singleton', '--block-delay', '0.05'], {
    env: { ...process.env, WEFT_DATA: t.testdir(), WEFT_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const out = collect(child.stdout!)
  const exited = new Promise((resolve) => child.on('exit', resolve))
  await until(() => out().includes('\n'), 30000)
  const [first] = out().split('\n')
  t.match(first, /^Weft node \(test-singleton, spec profile, devnet producer on\) listening on http:\/\/127\.0\.0\.1:\d+$/)
  const url = first!.slice(first!.lastIndexOf(' ') + 1)
  t.equal((await send(`${url}/health-check`)).status, 200)
  await until(() => out().includes('"url":"/health-check"'))
  const logLine = JSON.parse(
    out()
      .split('\n')
      .find((line) => line.includes('"url":"/health-check"'))!,
  )
  t.match(logLine, { level: 30, method: 'GET', url: '/health-check', status: 200 })
  child.kill('SIGTERM')
  t.equal(await exited, 0, 'a clean exit')
  t.match(out(), /SIGTERM: shutting down/)
})

t.test('close waits for handlers whose clients already left before it closes the store', async (t) => {
  const data = await filledFolder(t, 'test-singleton', 300, 0)
  const lines: string[] = []
  const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) })
  const server = await startServer({ port: 0, data, network: 'test-singleton', devnet: false }, logger)
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
  const { ended } = await new Promise<{ ended: Promise<void> }>((resolve, reject) => {
    get(`${server.url}/chain/0.0/development/header/updates`, { agent }, (res) => {
      resolve({ ended: new Promise<void>((done) => res.on('end', () => done()).resume()) })
    }).on('error', reject)
  })
  await until(() => server.eventClients().header === 1)
  const started = Date.now()
  await server.close()
  await ended
  t.ok(
    Date.now() - started < CLOSE_GRACE_MS,
    `closed in ${Date.now() - started} ms, before the grace period of ${CLOSE_GRACE_MS} ms would have cut the connection`,
  )
})
