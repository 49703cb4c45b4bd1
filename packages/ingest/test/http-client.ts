import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { HttpClient, retryAfterMs } from '../src/http-client.js'

async function serve(t: Test, handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    server.closeAllConnections()
    server.close()
  })
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

t.test('a request reads the whole answer; ok() throws for a status outside 2xx, naming the server cause', async (t) => {
  const url = await serve(t, (req, res) => {
    if (req.url === '/json') {
      let body = ''
      req.on('data', (chunk: Buffer) => (body += chunk))
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ method: req.method, type: req.headers['content-type'], accept: req.headers.accept, body }))
      })
      return
    }
    const answers: Record<string, [number, string, Record<string, string>]> = {
      '/problem': [404, '{"code":"CURSOR_NOT_FOUND"}', {}],
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
  const answer = await http.ok(`${url}/json`, { method: 'POST', body: '{"a":1}', accept: 'text/plain' })
  t.same(JSON.parse(answer.body.toString()), { method: 'POST', type: 'application/json', accept: 'text/plain', body: '{"a":1}' })
  t.equal((await http.send(`${url}/problem`)).status, 404, 'send answers any status')
  await t.rejects(http.ok(`${url}/problem`), { code: 'UPSTREAM_HTTP_ERROR', status: 404, serverCode: 'CURSOR_NOT_FOUND' })
  await t.rejects(http.ok(`${url}/key`), { code: 'UPSTREAM_HTTP_ERROR', serverCode: 'KEY_NOT_FOUND' })
  await t.rejects(http.ok(`${url}/text`), { serverCode: 'HTTP_400', message: /received 400 \(HTTP_400\): plain words/ })
  await t.rejects(http.ok(`${url}/busy`), { code: 'UPSTREAM_HTTP_ERROR', status: 429, retryAfterMs: 3000 })
  await t.rejects(http.ok(`${url}/long`), { message: /x{200}\.\.\.$/ })
})

t.test('no answer is UPSTREAM_UNREACHABLE with the reason; a cancel is INGEST_STOPPED', async (t) => {
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
  await t.rejects(http.send(`${url}/silent`), { code: 'UPSTREAM_UNREACHABLE', message: /no byte for 100 ms/ })
  await t.rejects(http.send(`${url}/reset`), { code: 'UPSTREAM_UNREACHABLE', message: /ECONNRESET|socket hang up/ })
  await t.rejects(http.send(`${url}/cut-short`), { code: 'UPSTREAM_UNREACHABLE' }, 'a body cut short')
  await t.rejects(http.send('http://127.0.0.1:1/'), { code: 'UPSTREAM_UNREACHABLE', message: /ECONNREFUSED/ })
  const controller = new AbortController()
  const asked = http.send(`${url}/silent`, { signal: controller.signal })
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
  const res = await http.stream(`${url}/events`)
  const first = await new Promise<string>((resolve) => res.once('data', (chunk: Buffer) => resolve(chunk.toString())))
  t.equal(first, 'data:1\n\n')
  await new Promise((resolve) => setTimeout(resolve, 150))
  t.notOk(res.destroyed, 'the request timeout no longer applies once the stream is open')
  res.destroy()
  await t.rejects(http.stream(`${url}/gone`), { code: 'UPSTREAM_HTTP_ERROR', status: 503, retryAfterMs: 0 })
  await t.rejects(http.stream(`${url}/reset`), { code: 'UPSTREAM_UNREACHABLE' })
})

t.test('Retry-After is seconds or an HTTP date', async (t) => {
  const now = Date.parse('2030-01-01T00:00:00Z')
  t.equal(retryAfterMs('2', now), 2000)
  t.equal(retryAfterMs(['5', '7'], now), 5000)
  t.equal(retryAfterMs('Tue, 01 Jan 2030 00:00:10 GMT', now), 10_000)
  t.equal(retryAfterMs('Mon, 31 Dec 2029 00:00:00 GMT', now), 0, 'a date past is now')
  t.equal(retryAfterMs('soon', now), undefined)
  t.equal(retryAfterMs(undefined, now), undefined)
  t.equal(retryAfterMs('', now), undefined)
})
