import { request } from 'node:http'
import t from 'tap'
import { peerAddress } from '../../src/http/common-headers.js'
import { nodeVersion } from '../../src/index.js'
import { filledFolder, startNode } from '../fixtures/node.js'

// One devnet-filled folder (20 chains, with forks) for the whole file: every test opens a node on it in turn.
const dir = await filledFolder(t, 'development', 200, 0.2)

function sendFrom(
  url: string,
  method = 'GET',
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string; localPort: number; localAddress: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: text,
          localPort: req.socket?.localPort ?? 0,
          localAddress: req.socket?.localAddress ?? '',
        }),
      )
    })
    req.on('error', reject)
    req.end(body)
  })
}

t.test('x-peer-addr writes IPv4 as host:port and IPv6 in brackets', async (t) => {
  t.equal(peerAddress('1.2.3.4', 5678), '1.2.3.4:5678')
  t.equal(peerAddress('::1', 5678), '[::1]:5678')
  t.equal(peerAddress('::ffff:10.0.0.1', 80), '10.0.0.1:80', 'an IPv4 peer of a dual-stack socket')
  t.equal(peerAddress(undefined, undefined), 'unknown:0')
})

for (const profile of ['spec', 'chainweb'] as const) {
  t.test(`${profile} profile: every response carries the common headers, errors included`, async (t) => {
    const server = await startNode(t, { data: dir, network: 'development', profile })
    const base = `${server.url}/${profile === 'spec' ? 'chain' : 'chainweb'}/0.0/development`
    const versionHeader = profile === 'spec' ? 'x-chain-node-version' : 'x-chainweb-node-version'
    const requests: Array<[string, string, Record<string, string>, string | undefined, number]> = [
      ['GET', '/health-check', {}, undefined, 200],
      ['GET', '/info', {}, undefined, 200],
      ['GET', '/openapi.json', {}, undefined, 200],
      ['GET', `${base}/chain/0/block?limit=2`, {}, undefined, 200],
      ['GET', `${base}/cut`, {}, undefined, 200],
      ['GET', '/nowhere', {}, undefined, 404],
      ['GET', `${base}/chain/0/block?limit=x`, {}, undefined, 400],
      ['POST', '/info', {}, undefined, 405],
      ['GET', `${base}/chain/0/block`, { accept: 'text/csv' }, undefined, 406],
      ['POST', `${base}/chain/0/block/branch`, {}, '{}', 415],
      [
        'POST',
        `${base}/chain/0/block/branch`,
        { 'content-type': 'application/json', 'content-length': String(3 * 1024 * 1024) },
        undefined,
        413,
      ],
      [
        'OPTIONS',
        `${base}/chain/0/block/branch`,
        { origin: 'http://example.com', 'access-control-request-method': 'POST' },
        undefined,
        204,
      ],
      ['HEAD', `${base}/chain/0/block`, {}, undefined, 200],
    ]
    for (const [method, path, headers, body, status] of requests) {
      const before = Math.floor(Date.now() / 1000)
      const response = await sendFrom(path.startsWith('http') ? path : server.url + path, method, headers, body)
      const after = Math.floor(Date.now() / 1000)
      const label = `${method} ${path.replace(server.url, '')}`
      t.equal(response.status, status, `${label}: status`)
      t.equal(response.headers['x-peer-addr'], `127.0.0.1:${response.localPort}`, `${label}: x-peer-addr`)
      const timestamp = Number(response.headers['x-server-timestamp'])
      t.ok(Number.isInteger(timestamp) && timestamp >= before && timestamp <= after, `${label}: x-server-timestamp`)
      t.equal(response.headers[versionHeader], profile === 'spec' ? nodeVersion : '3.2', `${label}: node version`)
      t.equal(response.headers['access-control-allow-origin'], '*', `${label}: CORS`)
    }
  })
}
