import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { createFetchTransport, isTransient, WeftHttpError } from '../src/index.js'

async function serve(t: Test, handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<string> {
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => handler(req, res, body))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    server.closeAllConnections()
    server.close()
  })
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

t.test('a request resolves with the 2xx answer: status, headers, body bytes', async (t) => {
  const url = await serve(t, (req, res, body) => {
    res.writeHead(201, { 'content-type': 'application/json', 'x-chain-node-version': '0.1.0' })
    res.end(
      JSON.stringify({
        method: req.method,
        type: req.headers['content-type'] ?? null,
        accept: req.headers.accept ?? null,
        extra: req.headers['x-test'],
        body,
      }),
    )
  })
  const transport = createFetchTransport({ headers: { 'x-test': '1' } })
  const get = await transport.send({ url: `${url}/a` })
  t.equal(get.status, 201)
  t.equal(get.header('x-chain-node-version'), '0.1.0')
  t.equal(get.header('x-missing'), undefined)
  t.same(JSON.parse(Buffer.from(get.body).toString()), { method: 'GET', type: null, accept: '*/*', extra: '1', body: '' })
  const post = await transport.send({ method: 'POST', url: `${url}/b`, body: '{"a":1}', accept: 'application/json' })
  t.same(JSON.parse(Buffer.from(post.body).toString()), {
    method: 'POST',
    type: 'application/json',
    accept: 'application/json',
    extra: '1',
    body: '{"a":1}',
  })
})

t.test('an answer outside 2xx is WeftHttpError: the body parsed when it is JSON, the cause it names, its Retry-After', async (t) => {
  const answers: Record<string, [number, Record<string, string>, string]> = {
    '/problem': [404, { 'content-type': 'application/problem+json' }, '{"code":"CURSOR_NOT_FOUND","detail":"no such cursor"}'],
    '/key': [404, {}, '{"key":"x","reason":"key not found"}'],
    '/text': [400, { 'content-type': 'text/plain' }, 'plain words'],
    '/broken': [502, { 'content-type': 'application/json' }, '{oops'],
    '/busy': [429, { 'retry-after': '3' }, ''],
  }
  const url = await serve(t, (req, res) => {
    const [status, headers, body] = answers[req.url ?? '']!
    res.writeHead(status, headers)
    res.end(body)
  })
  const { send } = createFetchTransport()
  await t.rejects(send({ url: `${url}/problem` }), {
    code: 'HTTP_ERROR',
    status: 404,
    serverCode: 'CURSOR_NOT_FOUND',
    message: /: no such cursor$/,
  })
  await t.rejects(send({ method: 'POST', url: `${url}/key`, body: '{}' }), {
    code: 'HTTP_ERROR',
    serverCode: 'KEY_NOT_FOUND',
    method: 'POST',
    body: { key: 'x' },
  })
  await t.rejects(send({ url: `${url}/text` }), { code: 'HTTP_ERROR', serverCode: 'HTTP_400', body: 'plain words' })
  await t.rejects(
    send({ url: `${url}/broken` }),
    { code: 'HTTP_ERROR', serverCode: 'HTTP_502', body: '{oops' },
    'JSON that does not parse is kept as text',
  )
  const busy = await send({ url: `${url}/busy` }).catch((error: unknown) => error)
  t.ok(busy instanceof WeftHttpError && busy.retryAfterMs === 3000 && isTransient(busy))
})

t.test("no answer, and an answer that breaks off, are network errors worth a retry; an abort is the caller's own", async (t) => {
  const url = await serve(t, (req, res) => {
    if (req.url === '/hang') return
    res.writeHead(req.url === '/broken-error' ? 502 : 200, { 'content-type': 'application/json' })
    res.write('{"limit":1,"items":[')
    setTimeout(() => res.socket?.destroy(), 20)
  })
  const { send, open } = createFetchTransport()
  for (const path of ['/half', '/broken-error']) {
    const error = await send({ url: `${url}${path}` }).catch((e: unknown) => e)
    t.match(error, { name: 'WeftNetworkError', code: 'NETWORK_ERROR', url: `${url}${path}` }, path)
    t.ok(isTransient(error), `${path}: transient`)
  }
  const closed = createServer()
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
  const port = (closed.address() as AddressInfo).port
  await new Promise((resolve) => closed.close(resolve))
  await t.rejects(send({ url: `http://127.0.0.1:${port}/info` }), { code: 'NETWORK_ERROR', message: /ECONNREFUSED/ })
  const controller = new AbortController()
  setTimeout(() => controller.abort(), 50)
  await t.rejects(send({ url: `${url}/hang`, signal: controller.signal }), { name: 'AbortError' })
  const reading = new AbortController()
  const opened = await open({ url: `${url}/half`, signal: reading.signal })
  reading.abort()
  await t.rejects(opened.body!.getReader().read(), { name: 'AbortError' }, 'an opened body aborts with its signal')
})

t.test('open resolves once the headers came and streams the body; a status outside 2xx is an HTTP error', async (t) => {
  let finish: () => void = () => undefined
  const url = await serve(t, (req, res) => {
    if (req.url === '/gone') {
      res.writeHead(404, { 'content-type': 'application/json' })
      res.end('{"code":"NOT_FOUND"}')
      return
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    res.write('event:A\n')
    finish = () => res.end('data:1\n\n')
  })
  const calls: string[] = []
  const { open } = createFetchTransport({
    fetch: (input, init) => {
      calls.push(String(input))
      return fetch(input, init)
    },
  })
  const stream = await open({ url: `${url}/stream`, accept: 'text/event-stream' })
  t.equal(stream.header('content-type'), 'text/event-stream')
  finish()
  t.equal(await new Response(stream.body).text(), 'event:A\ndata:1\n\n')
  await t.rejects(open({ url: `${url}/gone` }), { code: 'HTTP_ERROR', serverCode: 'NOT_FOUND' })
  t.same(calls, [`${url}/stream`, `${url}/gone`], 'the fetch given is the one used')
})
