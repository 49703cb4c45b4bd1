import t, { type Test } from 'tap'
import { encodeHash } from '@weft/block'
import { chainBlocks, filledFolder, send, sendJson, startNode, type RawResponse } from './fixtures/node.js'

const dir = await filledFolder(t, 'development', 200, 0.2)
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
  problemOf(t, (await send(`${base}/chain/0/block?next=exclusive:${tip.hash}&minheight=${tip.height}`)), 404, 'NO_MATCHING_BLOCKS')
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
  problemOf(t, await postJsonRaw(`${base}/chain/0/block/branch?next=inclusive:${unknownHash}`, { upper: [tip.hash] }), 404, 'CURSOR_NOT_FOUND')
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
    const huge = '1' + '0'.repeat(40)
    const getCases: Array<[string, number]> = [
      ['limit=-1', 400], ['limit=' + huge, 200], ['limit=2.5', 400], ['limit=ten', 400], ['limit=', 400], ['limit=1&limit=2', 400],
      ['minheight=-1', 400], ['minheight=' + huge, noMatch], ['minheight=0.5', 400], ['minheight=low', 400],
      ['maxheight=-1', malformed], ['maxheight=' + huge, 200], ['maxheight=3.5', malformed], ['maxheight=high', malformed],
      ['next=garbage', malformed], ['next=inclusive:', malformed], ['next=inclusive:' + tip.slice(0, 40), malformed], ['next=INCLUSIVE:' + tip, malformed],
      ['next=inclusive:' + tip + '=', 200], ['next=inclusive:' + unknownHash, 404], ['next=inclusive:' + chain5[2]!.hash, 404],
    ]
    for (const [query, status] of getCases) {
      t.equal((await send(`${base}/chain/0/block?${query}`)).status, status, `GET block ?${query.slice(0, 60)}`)
      t.equal((await postJsonRaw(`${base}/chain/0/block/branch?${query}`, { upper: [tip] })).status, query.startsWith('next=inclusive:' + chain5[2]!.hash) ? 404 : status, `POST branch ?${query.slice(0, 60)}`)
    }
    for (const chain of ['20', '-1', 'x', '1.0', '00x']) {
      t.equal((await send(`${base}/chain/${chain}/block`)).status, 404, `chain ${chain}`)
      t.equal((await postJsonRaw(`${base}/chain/${chain}/block/branch`, { upper: [tip] })).status, 404, `branch on chain ${chain}`)
    }
    t.equal((await send(`${server.url}/${profile === 'spec' ? 'chain' : 'chainweb'}/0.0/mainnet01/chain/0/block`)).status, 404, 'unknown network')
    t.equal((await send(`${server.url}/${profile === 'spec' ? 'chain' : 'chainweb'}/0.1/development/chain/0/block`)).status, 404, 'unknown API version')
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
      ['33 lower bounds', JSON.stringify({ upper: [tip], lower: Array.from({ length: 33 }, (_, i) => encodeHash(Buffer.alloc(32, i))) }), 400],
      ['32 duplicated upper bounds', JSON.stringify({ upper: Array.from({ length: 40 }, () => tip) }), 200],
      ['3 MiB', JSON.stringify({ upper: [tip], pad: 'x'.repeat(3 * 1024 * 1024) }), 413],
    ]
    for (const [what, body, status] of bodies) {
      t.equal((await send(`${base}/chain/0/block/branch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status, status, what)
    }
    const tooMany = await postJsonRaw(`${base}/chain/0/block/branch`, { upper: Array.from({ length: 33 }, (_, i) => encodeHash(Buffer.alloc(32, i))) })
    if (profile === 'spec') t.equal(JSON.parse(tooMany.body.toString()).code, 'TOO_MANY_BOUNDS')
    t.equal((await send(`${base}/chain/0/block/branch`, { method: 'POST', body: JSON.stringify({ upper: [tip] }) })).status, 415, 'no content type')
    t.equal((await send(`${base}/chain/0/block/branch`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' })).status, 415, 'text/plain')
    t.equal((await send(`${base}/chain/0/block/branch`, { method: 'POST', headers: { 'content-type': 'application/json;charset=utf-8' }, body: JSON.stringify({ upper: [tip] }) })).status, 200, 'charset allowed')
    t.equal((await send(`${base}/chain/0/block`, { headers: { accept: 'text/html' } })).status, 406, 'text/html is not acceptable')
    t.equal((await send(`${base}/chain/0/block`, { headers: { accept: 'application/json;charset=latin1' } })).status, 406, 'other charset')
    t.equal((await send(`${base}/chain/0/block`, { headers: { accept: 'application/json;v=2' } })).status, 406, 'other parameters')
    t.equal((await postJsonRaw(`${base}/chain/0/block/branch`, { upper: [tip] }, true, { accept: 'application/xml' })).status, 406, 'branch: application/xml')
  })
}

async function postJsonRaw(url: string, body: unknown, encode = true, headers: Record<string, string> = {}): Promise<RawResponse> {
  return send(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: encode ? JSON.stringify(body) : String(body) })
}



t.test('an unexpected failure is a 500 in the profile\'s error format, and the node keeps answering', async (t) => {
  for (const profile of ['spec', 'chainweb'] as const) {
    const server = await startNode(t, { data: t.testdir(), network: 'test-singleton', profile })
    const base = `${server.url}/${profile === 'spec' ? 'chain' : 'chainweb'}/0.0/test-singleton`
    // A closed store fails every read: the one failure a client cannot cause.
    await server.store.close()
    const response = await send(`${base}/chain/0/block`)
    t.equal(response.status, 500)
    if (profile === 'spec') t.match(JSON.parse(response.body.toString()), { status: 500, code: 'INTERNAL_ERROR', title: 'Internal Server Error' })
    else t.equal(response.headers['content-type'], 'text/plain;charset=utf-8')
    t.notMatch(response.body.toString(), /closed/i, 'no internal detail leaks')
    t.equal((await send(`${server.url}/health-check`)).status, 200)
    await server.close()
  }
})
