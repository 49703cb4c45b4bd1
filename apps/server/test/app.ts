import { createHash } from 'node:crypto'
import { request } from 'node:http'
import { decodeU256, getNetwork } from '@weft/block'
import { encodeHash } from '@weft/hash-text'
import t, { type Test } from 'tap'
import { peerAddress } from '../src/common-headers.js'
import { type BlockRef, chainBlocks, filledFolder, postJson, type RawResponse, send, sendJson, startNode } from './fixtures/node.js'

// One devnet-filled folder (20 chains, with forks) for the whole file: every test opens a node on it in turn.
const dir = await filledFolder(t, 'development', 200, 0.2)

// ---- common headers ----

// Sends a request and reports the local port the client used, to compare with x-peer-addr.
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
      t.equal(response.headers[versionHeader], '0.0.0', `${label}: node version`)
      t.equal(response.headers['access-control-allow-origin'], '*', `${label}: CORS`)
    }
  })
}

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

t.test('Accept values the contract serves, and the ones it refuses', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development' })
  const url = `${server.url}/chain/0.0/development/chain/0/block?limit=1`
  for (const accept of [
    '*/*',
    'application/*',
    'application/json',
    'application/json;charset=utf-8',
    'application/json; charset=UTF-8',
    'text/html, application/json;q=0.9',
    'text/html,*/*;q=0.8',
    '',
  ]) {
    const response = await send(url, { headers: { accept } })
    t.equal(response.status, 200, `Accept: ${accept}`)
    t.equal(response.headers['content-type'], 'application/json;charset=utf-8')
  }
  for (const accept of [
    'text/plain',
    'application/json;charset=utf-16',
    'application/json;profile=x',
    'application/octet-stream',
    '*/*;x=1',
    'application/json;q=0',
    'application/json;blockheader-encoding=object',
  ]) {
    const response = await send(url, { headers: { accept } })
    t.equal(response.status, 406, `Accept: ${accept}`)
    t.equal(JSON.parse(response.body.toString()).code, 'NOT_ACCEPTABLE')
  }
  t.equal(
    (await send(`${server.url}/health-check`, { headers: { accept: 'text/csv' } })).status,
    200,
    'health-check is not a JSON endpoint',
  )
})

t.test('a body over 2 MiB is 413 whether its length is declared or streamed', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development' })
  const url = new URL(`${server.url}/chain/0.0/development/chain/0/block/branch`)
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
      (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      },
    )
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
  const declared = await send(url.href, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: Buffer.alloc(2 * 1024 * 1024 + 1, 0x20),
  })
  t.equal(declared.status, 413, 'one byte over the limit')
  const atLimit = await send(url.href, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: Buffer.concat([Buffer.from('{"upper":[]}'), Buffer.alloc(2 * 1024 * 1024 - 12, 0x20)]),
  })
  t.equal(atLimit.status, 404, 'exactly 2 MiB is read (and matches nothing)')
})

// ---- error mapping ----

const unknownHash = encodeHash(Buffer.alloc(32, 9))

function problemOf(t: Test, response: RawResponse, status: number, code: string): void {
  t.equal(response.status, status, `status ${status}`)
  t.match(response.headers['content-type'], /^application\/problem\+json/)
  const problem = JSON.parse(response.body.toString('utf8'))
  t.same(Object.keys(problem), ['type', 'title', 'status', 'detail', 'code'])
  t.same([problem.type, problem.status, problem.code], ['about:blank', status, code])
  t.type(problem.detail, 'string')
}

function textOf(t: Test, response: RawResponse, status: number): void {
  t.equal(response.status, status, `status ${status}`)
  t.equal(response.headers['content-type'], 'text/plain;charset=utf-8')
  t.ok(response.body.length > 0, 'a message')
}

const emptyPage = '{"limit":0,"items":[],"next":null}'

t.test('spec profile: every row of the profile table', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', profile: 'spec' })
  const base = `${server.url}/chain/0.0/development`
  const chain0 = await chainBlocks(server, 0)
  const chain1 = await chainBlocks(server, 1)
  const tip = chain0[chain0.length - 1]!

  t.equal((await send(`${base}/chain/0/block?limit=1`)).status, 200, 'base path /chain/0.0/{network}')
  t.equal((await send(`${server.url}/chainweb/0.0/development/chain/0/block`)).status, 404, 'the other base path is unknown')
  const page = await send(`${base}/chain/0/block?minheight=${tip.height}`)
  t.equal(page.headers['x-chain-node-version'], '0.0.0')
  t.notOk('x-chainweb-node-version' in page.headers)
  const parsed = JSON.parse(page.body.toString('utf8'))
  t.equal(parsed.next, null, 'next of the last page is null')
  t.ok('chainVersion' in parsed.items[0].header)
  problemOf(t, await send(`${base}/chain/0/block?minheight=100000`), 404, 'NO_MATCHING_BLOCKS')
  problemOf(t, await send(`${base}/chain/0/block?next=exclusive:${tip.hash}&minheight=${tip.height}`), 404, 'NO_MATCHING_BLOCKS')
  problemOf(t, await postJsonRaw(`${base}/chain/0/block/branch?minheight=100000`, { upper: [tip.hash] }), 404, 'NO_MATCHING_BLOCKS')
  problemOf(t, await send(`${base}/chain/0/block?next=inclusive:abc`), 404, 'INVALID_CURSOR')
  problemOf(t, await send(`${base}/chain/0/block?next=Inclusive:${tip.hash}`), 404, 'INVALID_CURSOR')
  problemOf(t, await send(`${base}/chain/0/block?maxheight=x`), 404, 'INVALID_MAXHEIGHT')
  problemOf(t, await send(`${base}/chain/0/block?minheight=5&maxheight=4`), 404, 'NO_MATCHING_BLOCKS')
  problemOf(t, await postJsonRaw(`${base}/chain/0/block/branch?next=inclusive:abc`, { upper: [tip.hash] }), 404, 'INVALID_CURSOR')
  problemOf(t, await postJsonRaw(`${base}/chain/0/block/branch?minheight=5&maxheight=4`, { upper: [tip.hash] }), 404, 'NO_MATCHING_BLOCKS')
  problemOf(t, await send(`${base}/chain/0/block?next=inclusive:${unknownHash}`), 404, 'CURSOR_NOT_FOUND')
  problemOf(t, await send(`${base}/chain/0/block?next=inclusive:${chain1[3]!.hash}`), 404, 'CURSOR_NOT_FOUND')
  problemOf(t, await postJsonRaw(`${base}/chain/0/block/branch`, { upper: [unknownHash] }), 404, 'BLOCK_NOT_FOUND')
  problemOf(t, await postJsonRaw(`${base}/chain/0/block/branch`, { upper: [chain1[3]!.hash] }), 404, 'BLOCK_NOT_FOUND')
  problemOf(
    t,
    await postJsonRaw(`${base}/chain/0/block/branch?next=inclusive:${unknownHash}`, { upper: [tip.hash] }),
    404,
    'CURSOR_NOT_FOUND',
  )
  problemOf(t, await send(`${base}/chain/0/block?limit=-1`), 400, 'INVALID_QUERY')
  problemOf(t, await send(`${base}/chain/0/block?minheight=1.5`), 400, 'INVALID_QUERY')
  problemOf(t, await postJsonRaw(`${base}/chain/0/block/branch`, { upper: 'x' }), 400, 'INVALID_BODY')
  const info = await sendJson(`${server.url}/info`)
  t.equal(info.json.nodeBlockDelay, 30, 'nodeBlockDelay in seconds')
})

t.test('chainweb profile: every row of the profile table', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', profile: 'chainweb' })
  const base = `${server.url}/chainweb/0.0/development`
  const chain0 = await chainBlocks(server, 0)
  const chain1 = await chainBlocks(server, 1)
  const tip = chain0[chain0.length - 1]!

  t.equal((await send(`${base}/chain/0/block?limit=1`)).status, 200, 'base path /chainweb/0.0/{network}')
  t.equal((await send(`${server.url}/chain/0.0/development/chain/0/block`)).status, 404, 'the other base path is unknown')
  const page = await send(`${base}/chain/0/block?minheight=${tip.height}`)
  t.equal(page.headers['x-chainweb-node-version'], '0.0.0')
  t.notOk('x-chain-node-version' in page.headers)
  const parsed = JSON.parse(page.body.toString('utf8'))
  t.equal(parsed.next, `exclusive:${parsed.items[parsed.items.length - 1].header.hash}`, 'next of the last page is exclusive:<last>')
  t.ok('chainwebVersion' in parsed.items[0].header)
  t.notOk('chainVersion' in parsed.items[0].header)
  for (const response of [
    await send(`${base}/chain/0/block?minheight=100000`),
    await send(`${base}/chain/0/block?next=${parsed.next}`),
    await postJsonRaw(`${base}/chain/0/block/branch?minheight=100000`, { upper: [tip.hash] }),
    await send(`${base}/chain/0/block?minheight=5&maxheight=4`),
    await postJsonRaw(`${base}/chain/0/block/branch?minheight=5&maxheight=4`, { upper: [tip.hash] }),
  ]) {
    t.equal(response.status, 200)
    t.equal(response.body.toString(), emptyPage, 'no match: an empty page')
  }
  textOf(t, await send(`${base}/chain/0/block?next=inclusive:abc`), 400)
  textOf(t, await send(`${base}/chain/0/block?maxheight=x`), 400)
  textOf(t, await postJsonRaw(`${base}/chain/0/block/branch?next=bogus`, { upper: [tip.hash] }), 400)
  textOf(t, await postJsonRaw(`${base}/chain/0/block/branch?maxheight=-3`, { upper: [tip.hash] }), 400)
  for (const [response, key] of [
    [await send(`${base}/chain/0/block?next=inclusive:${unknownHash}`), unknownHash],
    [await send(`${base}/chain/0/block?next=exclusive:${chain1[3]!.hash}`), chain1[3]!.hash],
    [await postJsonRaw(`${base}/chain/0/block/branch`, { upper: [unknownHash] }), unknownHash],
    [await postJsonRaw(`${base}/chain/0/block/branch?next=inclusive:${unknownHash}`, { upper: [tip.hash] }), unknownHash],
  ] as const) {
    t.equal(response.status, 404)
    t.equal(response.body.toString(), JSON.stringify({ key, reason: 'key not found' }))
    t.equal(response.headers['content-type'], 'application/json;charset=utf-8')
  }
  textOf(t, await send(`${base}/chain/0/block?limit=abc`), 400)
  textOf(t, await send(`${base}/chain/0/block?minheight=-1`), 400)
  textOf(t, await postJsonRaw(`${base}/chain/0/block/branch`, '{nope', false), 400)
  const info = await sendJson(`${server.url}/info`)
  t.equal(info.json.nodeBlockDelay, 30_000_000, 'nodeBlockDelay in microseconds')
})

for (const profile of ['spec', 'chainweb'] as const) {
  t.test(`${profile} profile: the whole bad-input list gets the contract's statuses, never 500`, async (t) => {
    const server = await startNode(t, { data: dir, network: 'development', profile })
    const base = `${server.url}/${profile === 'spec' ? 'chain' : 'chainweb'}/0.0/development`
    const chain0 = await chainBlocks(server, 0)
    const chain5 = await chainBlocks(server, 5)
    const tip = chain0[chain0.length - 1]!.hash
    const malformed = profile === 'spec' ? 404 : 400
    const noMatch = profile === 'spec' ? 404 : 200
    const huge = `1${'0'.repeat(40)}`
    const getCases: Array<[string, number]> = [
      ['limit=-1', 400],
      [`limit=${huge}`, 200],
      ['limit=2.5', 400],
      ['limit=ten', 400],
      ['limit=', 400],
      ['limit=1&limit=2', 400],
      ['minheight=-1', 400],
      [`minheight=${huge}`, noMatch],
      ['minheight=0.5', 400],
      ['minheight=low', 400],
      ['maxheight=-1', malformed],
      [`maxheight=${huge}`, 200],
      ['maxheight=3.5', malformed],
      ['maxheight=high', malformed],
      ['next=garbage', malformed],
      ['next=inclusive:', malformed],
      [`next=inclusive:${tip.slice(0, 40)}`, malformed],
      [`next=INCLUSIVE:${tip}`, malformed],
      [`next=inclusive:${tip}=`, 200],
      [`next=inclusive:${unknownHash}`, 404],
      [`next=inclusive:${chain5[2]!.hash}`, 404],
    ]
    for (const [query, status] of getCases) {
      t.equal((await send(`${base}/chain/0/block?${query}`)).status, status, `GET block ?${query.slice(0, 60)}`)
      t.equal(
        (await postJsonRaw(`${base}/chain/0/block/branch?${query}`, { upper: [tip] })).status,
        query.startsWith(`next=inclusive:${chain5[2]!.hash}`) ? 404 : status,
        `POST branch ?${query.slice(0, 60)}`,
      )
    }
    for (const chain of ['20', '-1', 'x', '1.0', '00x', '01', '+1']) {
      t.equal((await send(`${base}/chain/${chain}/block`)).status, 404, `chain ${chain}`)
      t.equal((await postJsonRaw(`${base}/chain/${chain}/block/branch`, { upper: [tip] })).status, 404, `branch on chain ${chain}`)
    }
    t.equal(
      (await send(`${server.url}/${profile === 'spec' ? 'chain' : 'chainweb'}/0.0/mainnet01/chain/0/block`)).status,
      404,
      'unknown network',
    )
    t.equal(
      (await send(`${server.url}/${profile === 'spec' ? 'chain' : 'chainweb'}/0.1/development/chain/0/block`)).status,
      404,
      'unknown API version',
    )
    const bodies: Array<[string, string | Buffer, number]> = [
      ['invalid JSON', '{"upper": [', 400],
      ['empty body', '', 400],
      ['an array', '[]', 400],
      ['null', 'null', 400],
      ['upper a string', '{"upper": "x"}', 400],
      ['upper of numbers', '{"upper": [1, 2]}', 400],
      ['lower an object', `{"upper": ["${tip}"], "lower": {}}`, 400],
      ['a malformed hash', '{"upper": ["abc"]}', 400],
      ['a hash of 44 characters', `{"upper": ["${tip}A"]}`, 400],
      ['33 upper bounds', JSON.stringify({ upper: Array.from({ length: 33 }, (_, i) => encodeHash(Buffer.alloc(32, i))) }), 400],
      [
        '33 lower bounds',
        JSON.stringify({ upper: [tip], lower: Array.from({ length: 33 }, (_, i) => encodeHash(Buffer.alloc(32, i))) }),
        400,
      ],
      ['32 duplicated upper bounds', JSON.stringify({ upper: Array.from({ length: 40 }, () => tip) }), 200],
      ['3 MiB', JSON.stringify({ upper: [tip], pad: 'x'.repeat(3 * 1024 * 1024) }), 413],
    ]
    for (const [what, body, status] of bodies) {
      t.equal(
        (await send(`${base}/chain/0/block/branch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status,
        status,
        what,
      )
    }
    const tooMany = await postJsonRaw(`${base}/chain/0/block/branch`, {
      upper: Array.from({ length: 33 }, (_, i) => encodeHash(Buffer.alloc(32, i))),
    })
    if (profile === 'spec') t.equal(JSON.parse(tooMany.body.toString()).code, 'TOO_MANY_BOUNDS')
    t.equal(
      (await send(`${base}/chain/0/block/branch`, { method: 'POST', body: JSON.stringify({ upper: [tip] }) })).status,
      415,
      'no content type',
    )
    t.equal(
      (await send(`${base}/chain/0/block/branch`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' })).status,
      415,
      'text/plain',
    )
    t.equal(
      (
        await send(`${base}/chain/0/block/branch`, {
          method: 'POST',
          headers: { 'content-type': 'application/json;charset=utf-8' },
          body: JSON.stringify({ upper: [tip] }),
        })
      ).status,
      200,
      'charset allowed',
    )
    t.equal((await send(`${base}/chain/0/block`, { headers: { accept: 'text/html' } })).status, 406, 'text/html is not acceptable')
    t.equal((await send(`${base}/chain/0/block`, { headers: { accept: 'application/json;charset=latin1' } })).status, 406, 'other charset')
    t.equal((await send(`${base}/chain/0/block`, { headers: { accept: 'application/json;v=2' } })).status, 406, 'other parameters')
    t.equal(
      (await postJsonRaw(`${base}/chain/0/block/branch`, { upper: [tip] }, true, { accept: 'application/xml' })).status,
      406,
      'branch: application/xml',
    )
  })
}

async function postJsonRaw(url: string, body: unknown, encode = true, headers: Record<string, string> = {}): Promise<RawResponse> {
  return send(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: encode ? JSON.stringify(body) : String(body),
  })
}

t.test("an unexpected failure is a 500 in the profile's error format, and the node keeps answering", async (t) => {
  for (const profile of ['spec', 'chainweb'] as const) {
    const server = await startNode(t, { data: t.testdir(), network: 'test-singleton', profile })
    const base = `${server.url}/${profile === 'spec' ? 'chain' : 'chainweb'}/0.0/test-singleton`
    // A closed store fails every read: the one failure a client cannot cause.
    await server.store.close()
    const response = await send(`${base}/chain/0/block`)
    t.equal(response.status, 500)
    if (profile === 'spec')
      t.match(JSON.parse(response.body.toString()), { status: 500, code: 'INTERNAL_ERROR', title: 'Internal Server Error' })
    else t.equal(response.headers['content-type'], 'text/plain;charset=utf-8')
    t.notMatch(response.body.toString(), /closed/i, 'no internal detail leaks')
    t.equal((await send(`${server.url}/health-check`)).status, 200)
    await server.close()
  }
})

// ---- node routes ----

t.test('health-check answers its fixed text', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development' })
  const response = await send(`${server.url}/health-check`)
  t.same(
    [response.status, response.headers['content-type'], response.body.toString()],
    [200, 'text/plain;charset=utf-8', 'Health check OK.\n'],
  )
})

t.test("info carries the network facts in the profile's units", async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', serviceDate: '2030-01-02T00:00:00Z' })
  const info = await sendJson(`${server.url}/info`)
  t.equal(info.headers['content-type'], 'application/json;charset=utf-8')
  const chains = Array.from({ length: 20 }, (_, i) => String(i))
  t.same(Object.keys(info.json), [
    'nodeApiVersion',
    'nodeBlockDelay',
    'nodeChains',
    'nodeGenesisHeights',
    'nodeGraphHistory',
    'nodeHistoricalChains',
    'nodeLatestBehaviorHeight',
    'nodeNumberOfChains',
    'nodePackageVersion',
    'nodeServiceDate',
    'nodeVersion',
  ])
  t.same(info.json.nodeChains, chains)
  t.equal(info.json.nodeNumberOfChains, 20)
  t.same(
    info.json.nodeGenesisHeights,
    chains.map((chain) => [chain, 0]),
  )
  t.equal(info.json.nodeGraphHistory.length, 1)
  t.same(info.json.nodeGraphHistory[0][1][7], [7, [2, 5, 9]])
  t.same(info.json.nodeHistoricalChains, info.json.nodeGraphHistory)
  t.same(
    [info.json.nodeApiVersion, info.json.nodeVersion, info.json.nodePackageVersion, info.json.nodeServiceDate],
    ['0.0', 'development', '0.0.0', '2030-01-02T00:00:00Z'],
  )
  const defaulted = await startNode(t, { data: t.testdir(), network: 'test-singleton', profile: 'chainweb' })
  const singleton = await sendJson(`${defaulted.url}/info`)
  t.same([singleton.json.nodeChains, singleton.json.nodeBlockDelay, singleton.json.nodeNumberOfChains], [['0'], 1_000_000, 1])
  t.match(singleton.json.nodeServiceDate, /^\d{4}-\d\d-\d\dT00:00:00\.000Z$/, 'a default service date')
  t.ok(Date.parse(singleton.json.nodeServiceDate) > Date.now(), 'in the future')
})

t.test('mainnet01 starts from its real genesis blocks, and info follows its graph history', async (t) => {
  const folders = t.testdir({ mainnet: {}, testnet: {} })
  const server = await startNode(t, { data: `${folders}/mainnet`, network: 'mainnet01' })
  const info = await sendJson(`${server.url}/info`)
  t.same(
    info.json.nodeGraphHistory.map((entry: [number, unknown]) => entry[0]),
    [852054, 0],
  )
  t.equal(info.json.nodeChains.length, 20, 'the cut reaches the twenty-chain graph (chains 10-19 start there)')
  t.same(info.json.nodeGenesisHeights[10], ['10', 852054])
  const cut = await sendJson(`${server.url}/chain/0.0/mainnet01/cut`)
  t.equal(Object.keys(cut.json.hashes).length, 20)
  t.equal(cut.json.hashes['0'].hash, (await chainBlocks(server, 0))[0]!.hash)
  const limited = await sendJson(`${server.url}/chain/0.0/mainnet01/cut?maxheight=100`)
  t.same(
    Object.keys(limited.json.hashes),
    ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'],
    'chains whose genesis lies above the cut height are left out',
  )
  t.equal(limited.json.height, 0)
  const testnet = await startNode(t, { data: `${folders}/testnet`, network: 'testnet04', profile: 'chainweb' })
  const genesis = await sendJson(`${testnet.url}/chainweb/0.0/testnet04/chain/0/block`)
  t.equal(genesis.json.items.length, 1)
  t.equal(genesis.json.items[0].header.chainwebVersion, 'testnet04')
})

function ancestorAt(blocks: ReadonlyMap<string, BlockRef>, hash: string, height: number): BlockRef {
  let at = blocks.get(hash)!
  while (at.height > height) at = blocks.get(at.parent)!
  return at
}

t.test('cut lists the best heads; maxheight replaces them by their ancestors', async (t) => {
  for (const profile of ['spec', 'chainweb'] as const) {
    const server = await startNode(t, { data: dir, network: 'development', profile })
    const url = `${server.url}/${profile === 'spec' ? 'chain' : 'chainweb'}/0.0/development/cut`
    const cut = await sendJson(url)
    t.same(Object.keys(cut.json), ['hashes', 'origin', 'weight', 'height', 'instance', 'id'])
    const heads = server.store.cut()
    const chains = [...heads.keys()].sort((a, b) => a - b)
    t.same(Object.keys(cut.json.hashes), chains.map(String))
    for (const chain of chains)
      t.same(cut.json.hashes[String(chain)], { height: heads.get(chain)!.height, hash: heads.get(chain)!.hash.toString('base64url') })
    t.equal(cut.json.origin, null)
    t.equal(cut.json.instance, 'development')
    t.equal(
      cut.json.height,
      chains.reduce((sum, chain) => sum + heads.get(chain)!.height, 0),
    )
    t.equal(
      decodeU256(Buffer.from(cut.json.weight, 'base64url')),
      chains.reduce((sum, chain) => sum + heads.get(chain)!.weight, 0n),
    )
    t.equal(
      cut.json.id,
      createHash('sha512-256')
        .update(Buffer.concat(chains.map((chain) => heads.get(chain)!.hash)))
        .digest('base64url'),
    )

    const maxheight = 100
    const limited = await sendJson(`${url}?maxheight=${maxheight}`)
    const target = Math.floor(maxheight / getNetwork('development').graphs[0]!.graph.size)
    for (const chain of chains) {
      const blocks = new Map((await chainBlocks(server, chain)).map((block) => [block.hash, block]))
      const expected = ancestorAt(blocks, heads.get(chain)!.hash.toString('base64url'), target)
      t.same(limited.json.hashes[String(chain)], { height: expected.height, hash: expected.hash }, `chain ${chain} at height ${target}`)
    }
    t.equal(limited.json.height, target * 20)
    t.same((await sendJson(`${url}?maxheight=100000000`)).json, cut.json, 'a cut height above the heads changes nothing')
    t.equal((await send(`${url}?maxheight=-5`)).status, 400)
    t.equal((await send(`${url}?maxheight=abc`)).status, 400)
    await server.close()
  }
})

t.test('the OpenAPI document is 3.1 and built from the shared schemas', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', profile: 'chainweb' })
  const doc = await sendJson(`${server.url}/openapi.json`)
  t.equal(doc.json.openapi, '3.1.0')
  t.ok(doc.json.paths['/chainweb/0.0/development/chain/{chain}/block'].get)
  t.ok(doc.json.paths['/chainweb/0.0/development/chain/{chain}/block/branch'].post)
  t.same(doc.json.components.schemas.BlockHeader.required.slice(0, 3), ['nonce', 'creationTime', 'parent'])
  t.ok(doc.json.components.schemas.ChainwebBlockPage)
  const refs = JSON.stringify(doc.json).match(/#\/components\/schemas\/\w+/g) ?? []
  for (const ref of new Set(refs)) t.ok(doc.json.components.schemas[ref.split('/').pop()!], `${ref} resolves`)
})

// ---- payload routes ----

for (const profile of ['spec', 'chainweb'] as const) {
  t.test(`${profile} profile: payloads are served node-wide, with and without outputs`, async (t) => {
    const server = await startNode(t, { data: dir, network: 'development', profile })
    const base = `${server.url}/${profile === 'spec' ? 'chain' : 'chainweb'}/0.0/development`
    const heads = [...server.store.cut().values()]
    const payloads = await Promise.all(
      heads.map(async (head) => JSON.parse((await server.store.getPayloadJson(head.payloadHash))!.toString())),
    )
    const first = heads[3]!
    const payloadHash = encodeHash(first.payloadHash)
    const outputs = await sendJson(`${base}/chain/${first.chainId}/payload/${payloadHash}/outputs`)
    t.same(outputs.json, payloads[3])
    t.same(Object.keys(outputs.json), ['transactions', 'minerData', 'transactionsHash', 'outputsHash', 'payloadHash', 'coinbase'])
    const plain = await sendJson(`${base}/chain/${(first.chainId + 7) % 20}/payload/${payloadHash}`)
    t.equal(plain.status, 200, 'whatever chain the path names')
    t.same(plain.json, {
      transactions: payloads[3].transactions.map((pair: string[]) => pair[0]),
      minerData: payloads[3].minerData,
      transactionsHash: payloads[3].transactionsHash,
      outputsHash: payloads[3].outputsHash,
      payloadHash,
    })
    const unknown = encodeHash(Buffer.alloc(32, 3))
    const missing = await send(`${base}/chain/0/payload/${unknown}`)
    t.equal(missing.status, 404)
    if (profile === 'chainweb') t.equal(missing.body.toString(), JSON.stringify({ key: unknown, reason: 'key not found' }))
    else t.equal(JSON.parse(missing.body.toString()).code, 'PAYLOAD_NOT_FOUND')
    t.equal((await send(`${base}/chain/0/payload/${unknown}/outputs`)).status, 404)
    t.equal((await send(`${base}/chain/0/payload/xyz`)).status, 400)
    t.equal((await send(`${base}/chain/20/payload/${payloadHash}`)).status, 404)

    const hashes = heads.map((head) => encodeHash(head.payloadHash))
    const batch = await postJson(`${base}/chain/0/payload/outputs/batch`, [hashes[5], unknown, hashes[1], hashes[2]])
    t.same(batch.json, [payloads[5], payloads[1], payloads[2]], 'request order, unknown left out')
    const objectBody = await postJson(`${base}/chain/0/payload/batch`, { heights: [1, 2], hashes: [hashes[0], hashes[4]] })
    t.same(
      objectBody.json.map((payload: { payloadHash: string }) => payload.payloadHash),
      [hashes[0], hashes[4]],
    )
    t.notOk('coinbase' in objectBody.json[0])
    const capped = await postJson(`${base}/chain/0/payload/outputs/batch`, [...Array.from({ length: 1000 }, () => unknown), hashes[0]])
    t.same(capped.json, [], 'only the first 1000 entries are served')
    t.equal((await postJson(`${base}/chain/0/payload/batch`, { hashes: 'x' })).status, 400)
    t.equal((await postJson(`${base}/chain/0/payload/batch`, [1])).status, 400)
    t.equal((await postJson(`${base}/chain/0/payload/batch`, ['short'])).status, 400)
    t.equal((await send(`${base}/chain/0/payload/batch`, { method: 'POST', body: '[]' })).status, 415)
  })
}
