import t, { type Test } from 'tap'
import { send, startNode } from '../fixtures/node.js'
import { parseAnswer, rawConnection } from '../fixtures/raw-client.js'

// Small timeouts, so that the cuts come within a test's time; the defaults are 10 s and 30 s.
const timeouts = { headersTimeout: 0.4, requestTimeout: 0.8, keepAliveTimeout: 0.3 }
// How late a cut may come on a loaded two-core machine: node checks every 50 ms here.
const slack = 1000

for (const profile of ['spec', 'chainweb'] as const) {
  const versionHeader = profile === 'spec' ? 'x-chain-node-version' : 'x-chainweb-node-version'
  const base = `/${profile === 'spec' ? 'chain' : 'chainweb'}/0.0/development`
  // The answer of a refused request: its status, the common headers, the profile's body, and a close.
  const checkRefusal = (t: Test, text: string, status: number, code: string): void => {
    const answer = parseAnswer(text)
    t.equal(answer.status, status, code)
    t.match(answer.headers['x-peer-addr'], /^127\.0\.0\.1:\d+$/)
    t.match(answer.headers['x-server-timestamp'], /^\d+$/)
    t.ok(answer.headers[versionHeader], 'the node version header')
    t.equal(answer.headers['access-control-allow-origin'], '*')
    t.equal(answer.headers.connection, 'close')
    if (profile === 'spec') t.match(JSON.parse(answer.body), { status, code })
    else t.equal(answer.headers['content-type'], 'text/plain;charset=utf-8')
  }

  t.test(`${profile} profile: a slowloris and a trickled body are cut within the timeouts while other clients are served`, async (t) => {
    const server = await startNode(t, { data: t.testdir(), network: 'development', profile, ...timeouts })
    const slowloris = await rawConnection(server.port)
    // A header line every 100 ms: each keeps the connection busy, none completes the headers.
    slowloris.trickle(['GET /info HTTP/1.1\r\nHost: 127.0.0.1\r\n', ...Array.from({ length: 60 }, (_, i) => `x-slow-${i}: 1\r\n`)], 100)
    const trickled = await rawConnection(server.port)
    const head = `POST ${base}/chain/0/block/branch HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 300\r\n\r\n`
    trickled.trickle([head, ...' '.repeat(300)], 20)
    const silent = await rawConnection(server.port)
    let served = 0
    const others = (async () => {
      const cut = { done: false }
      void Promise.all([slowloris.closed, trickled.closed, silent.closed]).then(() => {
        cut.done = true
      })
      while (!cut.done) {
        for (const path of ['/health-check', '/info', `${base}/chain/0/block?limit=1`]) {
          t.equal((await send(`${server.url}${path}`)).status, 200, `${path} while the slow clients hang on`)
          served++
        }
        await new Promise((resolve) => setTimeout(resolve, 30))
      }
    })()
    const [slowMs, trickledMs, silentMs] = await Promise.all([slowloris.closed, trickled.closed, silent.closed])
    await others
    t.ok(slowMs < timeouts.headersTimeout * 1000 + slack, `the slowloris was cut after ${slowMs} ms`)
    t.ok(silentMs < timeouts.headersTimeout * 1000 + slack, `a connection that sent nothing was cut after ${silentMs} ms`)
    t.ok(trickledMs >= timeouts.requestTimeout * 1000 - 50, `the trickled body was let run its ${timeouts.requestTimeout} s`)
    t.ok(trickledMs < timeouts.requestTimeout * 1000 + slack, `and cut after ${trickledMs} ms`)
    for (const connection of [slowloris, trickled, silent]) checkRefusal(t, connection.received(), 408, 'REQUEST_TIMEOUT')
    t.ok(served >= 3, `${served} other requests were answered meanwhile`)
    t.equal((await send(`${server.url}/health-check`)).status, 200, 'and the node answers after')
  })

  t.test(`${profile} profile: malformed HTTP is answered with the common headers and the profile's error body`, async (t) => {
    const server = await startNode(t, { data: t.testdir(), network: 'development', profile, ...timeouts })
    const cases: Array<[string, string, number, string]> = [
      ['a request line that is no HTTP', 'HELLO THERE\r\n\r\n', 400, 'MALFORMED_REQUEST'],
      ['a header without a colon', 'GET /info HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n', 400, 'MALFORMED_REQUEST'],
      ['an HTTP/1.1 request without Host', 'GET /info HTTP/1.1\r\n\r\n', 400, 'MALFORMED_REQUEST'],
      ['a request target that is no URL', 'GET http://[/info HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'MALFORMED_REQUEST'],
      [
        'a stream request whose target is no URL',
        `GET http://[${base}/header/updates HTTP/1.1\r\nHost: x\r\n\r\n`,
        400,
        'MALFORMED_REQUEST',
      ],
      ['headers over 16 KiB', `GET /info HTTP/1.1\r\nHost: x\r\nx-big: ${'a'.repeat(17 * 1024)}\r\n\r\n`, 431, 'HEADERS_TOO_LARGE'],
      [
        'a bad chunk size',
        `POST ${base}/chain/0/hash/branch HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n`,
        400,
        'MALFORMED_REQUEST',
      ],
    ]
    for (const [what, request, status, code] of cases) {
      const connection = await rawConnection(server.port)
      connection.socket.write(request)
      await connection.closed
      t.test(what, async (t) => checkRefusal(t, connection.received(), status, code))
    }
    const tunnel = await rawConnection(server.port)
    tunnel.socket.write('CONNECT example.invalid:443 HTTP/1.1\r\nHost: example.invalid:443\r\n\r\n')
    await tunnel.closed
    t.test('CONNECT, which node never hands to the request handler', async (t) =>
      checkRefusal(t, tunnel.received(), 405, 'METHOD_NOT_ALLOWED'),
    )
    const teapot = await send(`${server.url}/health-check`, { headers: { expect: 'a-teapot' } })
    t.equal(teapot.status, 200, 'an expectation node does not know is ignored, not answered with a bare 417')
    t.ok(teapot.headers['x-peer-addr'])
    const http10 = await rawConnection(server.port)
    http10.socket.write('GET /health-check HTTP/1.0\r\n\r\n')
    await http10.closed
    t.equal(parseAnswer(http10.received()).status, 200, 'HTTP/1.0 needs no Host')
  })
}

t.test('a kept-alive connection is closed once idle for the keep-alive timeout', async (t) => {
  const server = await startNode(t, { data: t.testdir(), network: 'development', ...timeouts })
  const connection = await rawConnection(server.port)
  connection.socket.write('GET /health-check HTTP/1.1\r\nHost: x\r\n\r\n')
  const closedAfter = await connection.closed
  t.equal(parseAnswer(connection.received()).status, 200)
  // node closes a second after the time it advertises (`keep-alive: timeout=`), so that a client never reuses a closing connection.
  const closesAt = timeouts.keepAliveTimeout * 1000 + 1000
  t.ok(closedAfter >= closesAt - 50, `closed after ${closedAfter} ms`)
  t.ok(closedAfter < closesAt + slack)
})
