import type { IncomingMessage } from 'node:http'
import { until } from '@weft/test-kit'
import t from 'tap'
import type { RunningServer } from '../../src/index.js'
import { clientAddress, RETRY_AFTER } from '../../src/traffic/client-limits.js'
import { send, startNode } from '../fixtures/node.js'
import { parseAnswer, type RawConnection, rawConnection } from '../fixtures/raw-client.js'
import { subscribe } from '../fixtures/streams.js'

const base = '/chain/0.0/development'

// A branch request whose body is not all sent: its handler runs (reading the body) until `finish`.
async function heldRequest(
  server: RunningServer,
  headers: Record<string, string> = {},
  prefix = base,
): Promise<{ finish(): Promise<number> }> {
  const connection = await rawConnection(server.port)
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')
  const body = '{"upper":[]}'
  connection.socket.write(
    `POST ${prefix}/chain/0/hash/branch HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n${extra}\r\n${body.slice(0, 3)}`,
  )
  return {
    finish: async () => {
      connection.socket.end(body.slice(3))
      await until(() => connection.received().includes('\r\n\r\n'), "the answer's headers")
      return parseAnswer(connection.received()).status
    },
  }
}

// Waits until the node counts `count` requests running besides the scrape (the held ones reached their handlers).
async function running(server: RunningServer, count: number): Promise<void> {
  await until(
    async () => (await send(`${server.url}/metrics`)).body.toString().includes(`weft_http_requests_running ${count + 1}\n`),
    'the held requests counted as running',
  )
}

for (const profile of ['spec', 'chainweb'] as const) {
  t.test(
    `${profile} profile: a client over its limit of running requests gets 429 with Retry-After, then is served once one ends`,
    async (t) => {
      const server = await startNode(t, { data: t.testdir(), network: 'development', profile, maxPerClient: 2 })
      const prefix = `/${profile === 'spec' ? 'chain' : 'chainweb'}/0.0/development`
      const held = [await heldRequest(server, {}, prefix), await heldRequest(server, {}, prefix)]
      await until(async () => (await send(`${server.url}/info`)).status === 429, 'a 429')
      const refused = await send(`${server.url}${prefix}/cut`)
      t.equal(refused.status, 429, `${profile}: the third request`)
      t.equal(refused.headers['retry-after'], String(RETRY_AFTER.requests))
      t.ok(refused.headers['x-peer-addr'], 'with the common headers')
      if (profile === 'spec') t.match(JSON.parse(refused.body.toString()), { status: 429, code: 'TOO_MANY_REQUESTS' })
      else t.match(refused.body.toString(), /^Expected at most 2 requests at once from 127\.0\.0\.1/)
      // No upper bound matches nothing: 404 in the spec profile, an empty page in the chainweb one.
      t.equal(await held[0]!.finish(), profile === 'spec' ? 404 : 200, 'a held request is answered once its body comes')
      await until(async () => (await send(`${server.url}/info`)).status === 200, 'a 200 again')
      t.pass('served again once a request ended')
      await held[1]!.finish()
    },
  )
}

t.test('event streams have their own limit per client, answered 429 with a longer Retry-After', async (t) => {
  const server = await startNode(t, { data: t.testdir(), network: 'development', maxStreamsPerClient: 2, maxPerClient: 1, keepAlive: 0 })
  const streams = [await subscribe(`${server.url}${base}/header/updates`), await subscribe(`${server.url}${base}/block/updates`)]
  await until(() => server.eventClients().header + server.eventClients().block === 2, 'both streams open')
  const refused = await send(`${server.url}${base}/header/updates`)
  t.equal(refused.status, 429)
  t.equal(refused.headers['retry-after'], String(RETRY_AFTER.streams))
  t.match(JSON.parse(refused.body.toString()), { code: 'TOO_MANY_STREAMS' })
  t.equal((await send(`${server.url}${base}/block/updates/`)).status, 429, 'a trailing slash names the same stream, counted alike')
  const filtered = await send(`${server.url}${base}/event/updates?module=coin`)
  t.equal(filtered.status, 429, 'a filtered stream counts as a stream')
  t.match(JSON.parse(filtered.body.toString()), { code: 'TOO_MANY_STREAMS' })
  t.equal((await send(`${server.url}/info`)).status, 200, 'open streams do not count as running requests')
  t.equal(
    (await send(`${server.url}${base}/header/updates`, { method: 'HEAD' })).status,
    200,
    'HEAD of a stream is a request, not a stream',
  )
  streams[0]!.destroy()
  await until(() => server.eventClients().header === 0, 'the header stream closed')
  const again = await subscribe(`${server.url}${base}/header/updates`)
  t.equal(again.response.statusCode, 200, 'a place freed is taken again')
  again.destroy()
  streams[1]!.destroy()
})

t.test('connections past the cap get 429 and are closed; past a tenth more (at least 64) node drops them unanswered', async (t) => {
  const server = await startNode(t, { data: t.testdir(), network: 'development', maxConnections: 2 })
  const idle: RawConnection[] = [await rawConnection(server.port), await rawConnection(server.port)]
  const over = await send(`${server.url}/health-check`)
  t.equal(over.status, 429)
  t.equal(over.headers.connection, 'close')
  t.equal(over.headers['retry-after'], String(RETRY_AFTER.connections))
  t.match(JSON.parse(over.body.toString()), { code: 'TOO_MANY_CONNECTIONS' })
  for (let count = 0; count < 65; count++) idle.push(await rawConnection(server.port))
  await until(() => idle.slice(0, 66).every((connection) => !connection.socket.destroyed), 'the idle connections open')
  const dropped = idle[66]!
  await dropped.closed
  t.equal(dropped.received(), '', 'the 67th connection is closed without an answer')
  for (const connection of idle) connection.socket.destroy()
  // A connection may still be counted, or dropped, until the node has seen the others close.
  await until(async () => (await send(`${server.url}/health-check`).catch(() => undefined))?.status === 200, 'the health check answered')
  t.pass('served again once the connections closed')
})

t.test('behind a trusted proxy a client is the last X-Forwarded-For entry', async (t) => {
  const trusted = await startNode(t, { data: t.testdir(), network: 'development', maxPerClient: 1, trustProxy: true })
  const first = await heldRequest(trusted, { 'x-forwarded-for': '192.0.2.1' })
  const second = await heldRequest(trusted, { 'x-forwarded-for': '192.0.2.2' })
  await running(trusted, 2)
  t.equal((await send(`${trusted.url}/info`, { headers: { 'x-forwarded-for': '192.0.2.3' } })).status, 200, 'a third address is served')
  const spoofed = await send(`${trusted.url}/info`, { headers: { 'x-forwarded-for': '192.0.2.9, 192.0.2.1' } })
  t.equal(spoofed.status, 429, 'the entries the client wrote itself do not count')
  await first.finish()
  await second.finish()
})

t.test("without --trust-proxy X-Forwarded-For is the client's word, and ignored", async (t) => {
  const direct = await startNode(t, { data: t.testdir(), network: 'development', maxPerClient: 1 })
  const held = await heldRequest(direct, { 'x-forwarded-for': '192.0.2.1' })
  // Once the held request runs, every request of the address is refused, whatever it says it forwards.
  await until(
    async () => (await send(`${direct.url}/info`, { headers: { 'x-forwarded-for': '192.0.2.2' } })).status === 429,
    'a 429 for the forwarded address',
  )
  t.pass('a request forwarded "for" another address is refused all the same')
  await held.finish()
})

t.test('addresses are counted as IPv4, and IPv6 ones by their /64 network', async (t) => {
  const of = (remoteAddress: string, forwarded?: string, trust = false): string =>
    clientAddress(
      { headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded }, socket: { remoteAddress } } as IncomingMessage,
      trust,
    )
  t.equal(of('127.0.0.1'), '127.0.0.1')
  t.equal(of('::ffff:192.0.2.7'), '192.0.2.7')
  t.equal(of('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64')
  t.equal(of('2001:0db8:0001:0002::9'), '2001:db8:1:2::/64', 'leading zeros dropped')
  t.equal(of('2001:db8::1'), '2001:db8:0:0::/64')
  t.equal(of('::1'), '0:0:0:0::/64')
  t.equal(of('fe80::1%eth0'), 'fe80:0:0:0::/64')
  t.equal(of('127.0.0.1', '192.0.2.1'), '127.0.0.1', 'not trusted: the peer')
  t.equal(of('127.0.0.1', '198.51.100.1, 192.0.2.1', true), '192.0.2.1')
  t.equal(of('127.0.0.1', '2001:db8:aa:bb::1', true), '2001:db8:aa:bb::/64')
  t.equal(of('127.0.0.1', '', true), '127.0.0.1', 'an empty header: the peer')
  t.equal(of('127.0.0.1', 'x'.repeat(500), true).length, 64, 'garbage is cut short')
})
