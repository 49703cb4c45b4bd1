import t from 'tap'
import { chainBlocks, filledFolder, send, startNode } from './fixtures/node.js'

// One devnet-filled folder (20 chains, with forks) for the whole file: every test opens a node on it in turn.
const dir = await filledFolder(t, 'development', 200, 0.2)

t.test('preflight OPTIONS names the methods of the path; unknown paths stay 404', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development' })
  const base = `${server.url}/chain/0.0/development`
  const preflight = await send(`${base}/chain/0/block/branch`, {
    method: 'OPTIONS',
    headers: { origin: 'http://example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
  })
  t.equal(preflight.status, 204)
  t.match(preflight.headers['access-control-allow-methods'], /POST/)
  t.equal(preflight.headers['access-control-allow-headers'], 'content-type')
  t.equal(preflight.headers['access-control-allow-origin'], '*')
  const get = await send(`${base}/chain/0/block`, { method: 'OPTIONS' })
  t.equal(get.status, 204)
  t.match(get.headers.allow, /GET, HEAD/)
  t.equal((await send(`${base}/chain/0/nothing`, { method: 'OPTIONS' })).status, 404)
})

t.test('HEAD answers like GET with an empty body', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development' })
  const base = `${server.url}/chain/0.0/development`
  for (const path of [
    '/health-check',
    '/info',
    `${base.replace(server.url, '')}/chain/3/block?limit=4`,
    `${base.replace(server.url, '')}/cut`,
  ]) {
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
  const header = await send(`${base}/chain/3/header/${blocks[1]!.hash}`, {
    method: 'HEAD',
    headers: { accept: 'application/octet-stream' },
  })
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
    t.equal(response.headers.allow, allow, `${method} ${path}: Allow`)
    if (method !== 'HEAD') t.equal(response.headers['content-type'], 'text/plain;charset=utf-8', 'chainweb errors are plain text')
  }
})
