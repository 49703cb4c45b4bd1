import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { HttpClient } from '../src/http-client.js'

async function serve(t: Test, handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    server.closeAllConnections()
    server.close()
  })
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

t.test("a request reads the whole 2xx answer; another status is @weft/api's HTTP error, naming the server cause", async (t) => {
  const url = await serve(t, (req, res) => {
    if (req.url === '/json') {
      let body = ''
      req.on('data', (chunk: Buffer) => (body += chunk))
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json', 'x-twice': ['a', 'b'], 'set-cookie': ['a=1', 'b=2'] })
        res.end(JSON.stringify({ method: req.method, type: req.headers['content-type'], accept: req.headers.accept, body }))
      })
      return
    }
    const answers: Record<string, [number, string, Record<string, string>]> = {
      '/problem': [404, '{"code":"CURSOR_NOT_FOUND"}', { 'content-type': 'application/problem+json' }],
      '/key': [404, '{"key":"x","reason":"key not found"}', {}],
      '/text': [400, 'plain words', {}],
      '/busy': [429, '', { 'retry-after': '3' }],
      '/long': [500, 'x'.repeat(300), {}],
    }
    const [status, body, headers] = answers[req.url ?? ''] ?? [404, '', {}]
    res.writeHead(status, headers)
    res.end(body)
  })
  const http = new HttpClient({ timeoutMs: 2000, maxSockets: 2 })
  t.teardown(() => http.close())
  const answer = await http.send({ method: 'POST', url: `${url}/json`, body: '{"a":1}', accept: 'text/plain' })
  t.same(JSON.parse(Buffer.from(answer.body).toString()), {
    method: 'POST',
    type: 'application/json',
    accept: 'text/plain',
    body: '{"a":1}',
  })
  t.equal(answer.header('x-twice'), 'a, b')
  t.equal(answer.header('set-cookie'), 'a=1', 'of a header node keeps as a list, the first')
  t.equal(answer.header('x-missing'), undefined)
  t.equal(JSON.parse(Buffer.from((await http.send({ url: `${url}/json` })).body).toString()).accept, 'application/json', 'JSON by default')
  await t.rejects(http.send({ url: `${url}/problem` }), { code: 'HTTP_ERROR', status: 404, serverCode: 'CURSOR_NOT_FOUND' })
  await t.rejects(http.send({ url: `${url}/key` }), { code: 'HTTP_ERROR', serverCode: 'KEY_NOT_FOUND' })
  await t.rejects(http.send({ url: `${url}/text` }), { code: 'HTTP_ERROR', message: /received 400 \(HTTP_400\): plain words/ })
  await t.rejects(http.send({ url: `${url}/busy` }), { code: 'HTTP_ERROR', status: 429, retryAfterMs: 3000 })
  await t.rejects(http.send({ url: `${url}/long` }), { code: 'HTTP_ERROR', message: /x{200}\.\.\.$/ })
})

t.test('no answer is NETWORK_ERROR with the reason; a cancel is INGEST_STOPPED', async (t) => {
  const url = await serve(t, (req, res) => {
    if (req.url === '/silent') return
    if (req.url === '/reset') {
      req.socket.destroy()
      return
    }
    res.writeHead(200)
    res.write('partial')
    setTimeout(() => res.socket?.destroy(), 20)
  })
  const http = new HttpClient({ timeoutMs: 100, maxSockets: 2 })
  t.teardown(() => http.close())
  await t.rejects(http.send({ url: `${url}/silent` }), { code: 'NETWORK_ERROR', message: /no byte for 100 ms/ })
  await t.rejects(http.send({ url: `${url}/reset` }), { code: 'NETWORK_ERROR', message: /ECONNRESET|socket hang up/ })
  await t.rejects(http.send({ url: `${url}/cut-short` }), { code: 'NETWORK_ERROR' }, 'a body cut short')
  await t.rejects(http.send({ url: 'http://127.0.0.1:1/' }), { code: 'NETWORK_ERROR', message: /ECONNREFUSED/ })
  const controller = new AbortController()
  const asked = http.send({ url: `${url}/silent`, signal: controller.signal })
  controller.abort()
  await t.rejects(asked, { code: 'INGEST_STOPPED' })
})

t.test('a stream resolves at its headers for 2xx, and throws for another status', async (t) => {
  const url = await serve(t, (req, res) => {
    if (req.url === '/gone') {
      res.writeHead(503, { 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' })
      res.end('later')
      return
    }
    if (req.url === '/reset') return void req.socket.destroy()
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    res.write('data:1\n\n')
  })
  const http = new HttpClient({ timeoutMs: 100, maxSockets: 2 })
  t.teardown(() => http.close())
  const res = await http.stream({ url: `${url}/events`, accept: 'text/event-stream' })
  const first = await new Promise<string>((resolve) => res.once('data', (chunk: Buffer) => resolve(chunk.toString())))
  t.equal(first, 'data:1\n\n')
  await new Promise((resolve) => setTimeout(resolve, 150))
  t.notOk(res.destroyed, 'the request timeout no longer applies once the stream is open')
  res.destroy()
  await t.rejects(http.stream({ url: `${url}/gone` }), { code: 'HTTP_ERROR', status: 503, retryAfterMs: 0 })
  await t.rejects(http.stream({ url: `${url}/reset` }), { code: 'NETWORK_ERROR' })
})
