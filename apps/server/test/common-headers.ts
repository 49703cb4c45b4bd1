import { request } from 'node:http'
import t from 'tap'
import { peerAddress } from '../src/common-headers.js'
import { chainBlocks, filledFolder, send, startNode } from './fixtures/node.js'

const dir = await filledFolder(t, 'development', 100, 0.1)

// Sends a request and reports the local port the client used, to compare with x-peer-addr.
function sendFrom(url: string, method = 'GET', headers: Record<string, string> = {}, body?: string): Promise<{ status: number; headers: Record<string, unknown>; body: string; localPort: number; localAddress: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, localPort: req.socket?.localPort ?? 0, localAddress: req.socket?.localAddress ?? '' }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

t.test('x-peer-addr writes IPv4 as host:port and IPv6 in brackets', async (t) => {
  t.equal(peerAddress('1.2.3.4', 5678), '1.2.3.4:5678')
  t.equal(peerAddress('::1', 5678), '[::1]:5678')
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
      ['POST', `${base}/chain/0/block/branch`, { 'content-type': 'application/json', 'content-length': String(3 * 1024 * 1024) }, undefined, 413],
      ['OPTIONS', `${base}/chain/0/block/branch`, { origin: 'http://example.com', 'access-control-request-method': 'POST' }, undefined, 204],
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
      t.equal(response.headers[versionHeader], '0.0.0', `${label}: node version`)
      t.equal(response.headers['access-control-allow-origin'], '*', `${label}: CORS`)
    }
  })
}

t.test('preflight OPTIONS names the methods of the path; unknown paths stay 404', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development' })
  const base = `${server.url}/chain/0.0/development`
  const preflight = await send(`${base}/chain/0/block/branch`, { method: 'OPTIONS', headers: { origin: 'http://example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } })
  t.equal(preflight.status, 204)
  t.match(preflight.headers['access-control-allow-methods'], /POST/)
  t.equal(preflight.headers['access-control-allow-headers'], 'content-type')
  t.equal(preflight.headers['access-control-allow-origin'], '*')
  const get = await send(`${base}/chain/0/block`, { method: 'OPTIONS' })
  t.equal(get.status, 204)
  t.match(get.headers['allow'], /GET, HEAD/)
  t.equal((await send(`${base}/chain/0/nothing`, { method: 'OPTIONS' })).status, 404)
})

t.test('HEAD answers like GET with an empty body', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development' })
  const base = `${server.url}/chain/0.0/development`
  for (const path of ['/health-check', '/info', `${base.replace(server.url, '')}/chain/3/block?limit=4`, `${base.replace(server.url, '')}/cut`]) {
    const get = await send(server.url + path)
    const head = await send(server.url + path, { method: 'HEAD' })
    t.equal(head.status, 200, `${path}: status`)
    t.equal(head.body.length, 0, `${path}: no body`)
    t.equal(head.headers['content-type'], get.headers['content-type'], `${path}: content type`)
    t.equal(head.headers['content-length'], String(get.body.length), `${path}: content length`)
  }
  const stream = await send(`${base}/header/updates`, { method: 'HEAD' })
  t.same([stream.status, stream.headers['content-type'], stream.body.length], [200, 'text/event-stream', 0], 'HEAD on the event stream')
  const blocks = await chainBlocks(server, 3)
  const header = await send(`${base}/chain/3/header/${blocks[1]!.hash}`, { method: 'HEAD', headers: { accept: 'application/octet-stream' } })
  t.same([header.status, header.body.length, header.headers['content-length']], [200, 0, '318'])
})

t.test('a wrong method on a known path is 405 with Allow', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', profile: 'chainweb' })
  const base = `${server.url}/chainweb/0.0/development`
  const cases: Array<[string, string, string]> = [
    ['POST', '/info', 'GET, HEAD, OPTIONS'],
    ['DELETE', `${base}/chain/0/block`, 'GET, HEAD, OPTIONS'],
    ['GET', `${base}/chain/0/block/branch`, 'POST, OPTIONS'],
    ['HEAD', `${base}/chain/0/block/branch`, 'POST, OPTIONS'],
    ['PUT', '/health-check', 'GET, HEAD, OPTIONS'],
    ['GET', `${base}/chain/0/header/branch`, 'POST, OPTIONS'],
    ['GET', `${base}/chain/0/payload/batch`, 'POST, OPTIONS'],
    ['POST', `${base}/header/updates`, 'GET, HEAD, OPTIONS'],
  ]
  for (const [method, path, allow] of cases) {
    const response = await send(path.startsWith('http') ? path : server.url + path, { method })
    t.equal(response.status, 405, `${method} ${path}`)
    t.equal(response.headers['allow'], allow, `${method} ${path}: Allow`)
    if (method !== 'HEAD') t.equal(response.headers['content-type'], 'text/plain;charset=utf-8', 'chainweb errors are plain text')
  }
})

t.test('Accept values the contract serves, and the ones it refuses', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development' })
  const url = `${server.url}/chain/0.0/development/chain/0/block?limit=1`
  for (const accept of ['*/*', 'application/*', 'application/json', 'application/json;charset=utf-8', 'application/json; charset=UTF-8', 'text/html, application/json;q=0.9', 'text/html,*/*;q=0.8', '']) {
    const response = await send(url, { headers: { accept } })
    t.equal(response.status, 200, `Accept: ${accept}`)
    t.equal(response.headers['content-type'], 'application/json;charset=utf-8')
  }
  for (const accept of ['text/plain', 'application/json;charset=utf-16', 'application/json;profile=x', 'application/octet-stream', '*/*;x=1', 'application/json;q=0', 'application/json;blockheader-encoding=object']) {
    const response = await send(url, { headers: { accept } })
    t.equal(response.status, 406, `Accept: ${accept}`)
    t.equal(JSON.parse(response.body.toString()).code, 'NOT_ACCEPTABLE')
  }
  t.equal((await send(`${server.url}/health-check`, { headers: { accept: 'text/csv' } })).status, 200, 'health-check is not a JSON endpoint')
})

t.test('a body over 2 MiB is 413 whether its length is declared or streamed', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development' })
  const url = new URL(`${server.url}/chain/0.0/development/chain/0/block/branch`)
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on('error', reject)
    const chunk = Buffer.alloc(256 * 1024, 0x20)
    let sent = 0
    const pump = (): void => {
      while (sent < 12) {
        sent++
        if (!req.write(chunk)) return void req.once('drain', pump)
      }
      req.end()
    }
    pump()
  })
  t.equal(status, 413, 'chunked, no content-length')
  const declared = await send(url.href, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.alloc(2 * 1024 * 1024 + 1, 0x20) })
  t.equal(declared.status, 413, 'one byte over the limit')
  const atLimit = await send(url.href, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat([Buffer.from('{"upper":[]}'), Buffer.alloc(2 * 1024 * 1024 - 12, 0x20)]) })
  t.equal(atLimit.status, 404, 'exactly 2 MiB is read (and matches nothing)')
})
