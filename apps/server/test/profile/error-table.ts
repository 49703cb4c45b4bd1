import { encodeHash } from '@weft/hash-text'
import type { NodeInfo, Problem } from '@weft/types'
import t, { type Test } from 'tap'
import { nodeVersion } from '../../src/index.js'
import { answeredCodes, errorTables } from '../../src/profile/error-table.js'
import { chainBlocks, filledFolder, postRaw, type RawResponse, send, sendJson, startNode } from '../fixtures/node.js'

// One devnet-filled folder (20 chains, with forks) for the whole file: every test opens a node on it in turn.
const dir = await filledFolder(t, 'development', 200, 0.2)

const unknownHash = encodeHash(Buffer.alloc(32, 9))

function problemOf(t: Test, response: RawResponse, status: number, code: string): void {
  t.equal(response.status, status, `status ${status}`)
  t.match(response.headers['content-type'], /^application\/problem\+json/)
  const problem = JSON.parse(response.body.toString('utf8')) as Problem
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
  t.equal(page.headers['x-chain-node-version'], nodeVersion, 'the package version')
  t.notOk('x-chainweb-node-version' in page.headers)
  const parsed = JSON.parse(page.body.toString('utf8'))
  t.equal(parsed.next, null, 'next of the last page is null')
  t.ok('chainVersion' in parsed.items[0].header)
  problemOf(t, await send(`${base}/chain/0/block?minheight=100000`), 404, 'NO_MATCHING_BLOCKS')
  problemOf(t, await send(`${base}/chain/0/block?next=exclusive:${tip.hash}&minheight=${tip.height}`), 404, 'NO_MATCHING_BLOCKS')
  problemOf(t, await postRaw(`${base}/chain/0/block/branch?minheight=100000`, { upper: [tip.hash] }), 404, 'NO_MATCHING_BLOCKS')
  problemOf(t, await send(`${base}/chain/0/block?next=inclusive:abc`), 404, 'INVALID_CURSOR')
  problemOf(t, await send(`${base}/chain/0/block?next=Inclusive:${tip.hash}`), 404, 'INVALID_CURSOR')
  problemOf(t, await send(`${base}/chain/0/block?maxheight=x`), 404, 'INVALID_MAXHEIGHT')
  problemOf(t, await send(`${base}/chain/0/block?minheight=5&maxheight=4`), 404, 'NO_MATCHING_BLOCKS')
  problemOf(t, await postRaw(`${base}/chain/0/block/branch?next=inclusive:abc`, { upper: [tip.hash] }), 404, 'INVALID_CURSOR')
  problemOf(t, await postRaw(`${base}/chain/0/block/branch?minheight=5&maxheight=4`, { upper: [tip.hash] }), 404, 'NO_MATCHING_BLOCKS')
  problemOf(t, await send(`${base}/chain/0/block?next=inclusive:${unknownHash}`), 404, 'CURSOR_NOT_FOUND')
  problemOf(t, await send(`${base}/chain/0/block?next=inclusive:${chain1[3]!.hash}`), 404, 'CURSOR_NOT_FOUND')
  problemOf(t, await postRaw(`${base}/chain/0/block/branch`, { upper: [unknownHash] }), 404, 'BLOCK_NOT_FOUND')
  problemOf(t, await postRaw(`${base}/chain/0/block/branch`, { upper: [chain1[3]!.hash] }), 404, 'BLOCK_NOT_FOUND')
  problemOf(t, await postRaw(`${base}/chain/0/block/branch?next=inclusive:${unknownHash}`, { upper: [tip.hash] }), 404, 'CURSOR_NOT_FOUND')
  problemOf(t, await send(`${base}/chain/0/block?limit=-1`), 400, 'INVALID_QUERY')
  problemOf(t, await send(`${base}/chain/0/block?minheight=1.5`), 400, 'INVALID_QUERY')
  problemOf(t, await postRaw(`${base}/chain/0/block/branch`, { upper: 'x' }), 400, 'INVALID_BODY')
  problemOf(t, await send(`${base}/chain/20/block`), 404, 'NOT_FOUND')
  // A chain the network lacks names nothing, whatever the method: not 405, as a known path would get.
  problemOf(t, await send(`${base}/chain/20/hash`, { method: 'PUT' }), 404, 'NOT_FOUND')
  problemOf(t, await send(`${base}/chain/x/block/branch`, { method: 'DELETE' }), 404, 'NOT_FOUND')
  problemOf(t, await send(`${base}/chain/0/hash`, { method: 'PUT' }), 405, 'METHOD_NOT_ALLOWED')
  problemOf(t, await send(`${server.url}/nowhere`), 404, 'NOT_FOUND')
  const info = await sendJson<NodeInfo>(`${server.url}/info`)
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
  t.equal(page.headers['x-chainweb-node-version'], '3.2', 'the version of the emulated release')
  t.notOk('x-chain-node-version' in page.headers)
  const parsed = JSON.parse(page.body.toString('utf8'))
  t.equal(parsed.next, `exclusive:${parsed.items[parsed.items.length - 1].header.hash}`, 'next of the last page is exclusive:<last>')
  t.ok('chainwebVersion' in parsed.items[0].header)
  t.notOk('chainVersion' in parsed.items[0].header)
  for (const response of [
    await send(`${base}/chain/0/block?minheight=100000`),
    await send(`${base}/chain/0/block?next=${parsed.next}`),
    await postRaw(`${base}/chain/0/block/branch?minheight=100000`, { upper: [tip.hash] }),
    await send(`${base}/chain/0/block?minheight=5&maxheight=4`),
    await postRaw(`${base}/chain/0/block/branch?minheight=5&maxheight=4`, { upper: [tip.hash] }),
  ]) {
    t.equal(response.status, 200)
    t.equal(response.body.toString(), emptyPage, 'no match: an empty page')
  }
  textOf(t, await send(`${base}/chain/0/block?next=inclusive:abc`), 400)
  textOf(t, await send(`${base}/chain/0/block?maxheight=x`), 400)
  textOf(t, await postRaw(`${base}/chain/0/block/branch?next=bogus`, { upper: [tip.hash] }), 400)
  textOf(t, await postRaw(`${base}/chain/0/block/branch?maxheight=-3`, { upper: [tip.hash] }), 400)
  for (const [response, key] of [
    [await send(`${base}/chain/0/block?next=inclusive:${unknownHash}`), unknownHash],
    [await send(`${base}/chain/0/block?next=exclusive:${chain1[3]!.hash}`), chain1[3]!.hash],
    [await postRaw(`${base}/chain/0/block/branch`, { upper: [unknownHash] }), unknownHash],
    [await postRaw(`${base}/chain/0/block/branch?next=inclusive:${unknownHash}`, { upper: [tip.hash] }), unknownHash],
  ] as const) {
    t.equal(response.status, 404)
    t.equal(response.body.toString(), JSON.stringify({ key, reason: 'key not found' }))
    t.equal(response.headers['content-type'], 'application/json;charset=utf-8')
  }
  textOf(t, await send(`${base}/chain/0/block?limit=abc`), 400)
  textOf(t, await send(`${base}/chain/0/block?minheight=-1`), 400)
  textOf(t, await postRaw(`${base}/chain/0/block/branch`, '{nope', false), 400)
  const info = await sendJson<NodeInfo>(`${server.url}/info`)
  t.equal(info.json.nodeBlockDelay, 30_000_000, 'nodeBlockDelay in microseconds')
  for (const path of [
    `${base}/chain/20/block`,
    `${base}/chain/x/hash`,
    `${server.url}/chainweb/0.0/mainnet01/cut`,
    `${server.url}/nowhere`,
  ]) {
    const response = await send(path)
    t.same([response.status, response.body.length, response.headers['content-type']], [404, 0, undefined], `${path}: 404, empty body`)
  }
  // Whatever the method, a chain the network lacks names nothing.
  const put = await send(`${base}/chain/20/hash`, { method: 'PUT' })
  t.same([put.status, put.body.length], [404, 0], 'PUT on a chain the network lacks: 404, empty body')
})

t.test('each profile has one answer for every code the server answers with', async (t) => {
  for (const [profile, table] of Object.entries(errorTables)) {
    t.same(Object.keys(table).sort(), [...answeredCodes].sort(), `${profile}: one row per code`)
    for (const [code, answer] of Object.entries(table))
      t.ok(answer.status >= 400 && answer.status <= 599, `${profile} ${code}: an error status`)
  }
  t.same(
    Object.entries(errorTables.chainweb)
      .filter(([, answer]) => answer.body === 'key-reason')
      .map(([code]) => code),
    ['CURSOR_NOT_FOUND', 'BLOCK_NOT_FOUND', 'PAYLOAD_NOT_FOUND'],
    'the chainweb profile answers unknown hashes with {"key","reason"}',
  )
  t.ok(
    Object.values(errorTables.spec).every((answer) => answer.body === 'problem'),
    'the spec profile answers problem bodies throughout',
  )
})
