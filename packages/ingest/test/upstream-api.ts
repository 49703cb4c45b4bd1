import { genesisBlock, mineChildHeader } from '@weft/block'
import { decodeHash } from '@weft/hash-text'
import { openStore } from '@weft/store'
import { freshFolder, makePayload } from '@weft/test-kit'
import t from 'tap'
import { HttpClient } from '../src/http-client.js'
import { UpstreamApi } from '../src/upstream-api.js'
import { discoverUpstream } from '../src/upstream-target.js'
import { serveContract } from './fixtures/contract-server.js'
import { filledStore } from './fixtures/stores.js'

t.test(
  "answers out of contract are INVALID_RESPONSE (not the wire's shape) or UPSTREAM_BAD_RESPONSE (not what ingest can use), each saying what was expected",
  async (t) => {
    const source = await filledStore(t, 60, { seed: 'api' })
    const upstream = await serveContract(t, source)
    const http = new HttpClient({ timeoutMs: 1000, maxSockets: 2 })
    t.teardown(() => http.close())
    const api = new UpstreamApi(await discoverUpstream(upstream.url, { http }), http, false)
    const signal = new AbortController().signal
    let body = ''
    upstream.intercept = (_req, res, path) => {
      if (path.endsWith('/info')) return false
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(body)
      return true
    }
    const cuts: Array<[string, string, RegExp]> = [
      ['not json', 'INVALID_RESPONSE', /answer JSON/],
      ['{"hashes":null}', 'UPSTREAM_BAD_RESPONSE', /a cut with hashes/],
      ['null', 'UPSTREAM_BAD_RESPONSE', /a cut with hashes/],
      ['{"hashes":{"x":{"height":1,"hash":"a"}}}', 'UPSTREAM_BAD_RESPONSE', /a height and a hash/],
      ['{"hashes":{"0":{"height":1.5,"hash":"a"}}}', 'UPSTREAM_BAD_RESPONSE', /a height and a hash/],
      ['{"hashes":{"0":null}}', 'UPSTREAM_BAD_RESPONSE', /a height and a hash/],
      ['{"hashes":{"0":{"height":1,"hash":"not a hash"}}}', 'UPSTREAM_BAD_RESPONSE', /43-character hashes/],
    ]
    for (const [text, code, message] of cuts) {
      body = text
      await t.rejects(api.cut(undefined, signal), { code, message }, text)
    }
    const pages: Array<[string, string, RegExp]> = [
      ['not json', 'INVALID_RESPONSE', /answer JSON/],
      ['{"items":null}', 'INVALID_RESPONSE', /a page with items/],
      ['{"limit":1,"items":[{"header":{}}],"next":null}', 'UPSTREAM_BAD_RESPONSE', /full blocks, received one that does not decode/],
    ]
    for (const [text, code, message] of pages) {
      body = text
      await t.rejects(api.blockPage(0, {}, signal), { code, message }, text)
    }
    body = '{"limit":0,"items":[],"next":"exclusive:AAAA"}'
    t.same(await api.blockPage(0, {}, signal), { blocks: [], next: undefined }, "chainweb's last-page cursor ends the walk")
  },
)

t.test('a query that matches nothing is an empty page in both profiles; schema checks when asked', async (t) => {
  const source = await filledStore(t, 60, { seed: 'api-empty' })
  const http = new HttpClient({ timeoutMs: 1000, maxSockets: 2 })
  t.teardown(() => http.close())
  const signal = new AbortController().signal
  for (const profile of ['spec', 'chainweb'] as const) {
    const upstream = await serveContract(t, source, profile)
    const api = new UpstreamApi(await discoverUpstream(upstream.url, { http }), http, true)
    t.same(await api.blockPage(0, { minheight: 10_000 }, signal), { blocks: [], next: undefined }, profile)
    const head = source.cut().get(0)!
    const branch = await api.branchPage(0, { lower: [head.hash], upper: [head.hash] }, {}, signal)
    t.same(branch.blocks, [], `${profile}: an empty branch`)
    const page = await api.blockPage(0, { limit: 2 }, signal)
    t.equal(page.blocks.length, 2)
    t.match(page.next, /^inclusive:/)
    t.equal((await api.cut(undefined, signal)).size, 20, 'a cut that passes its schema')
    api.checkUpdate(
      JSON.parse(
        `{"header":${(await source.getStoredHeader(head.hash))!.headerJson.toString().replace('"chainVersion"', profile === 'spec' ? '"chainVersion"' : '"chainwebVersion"')},"powHash":"${'0'.repeat(64)}","target":"${'f'.repeat(64)}","txCount":0}`,
      ),
    )
    t.throws(() => api.checkUpdate({ header: {} }), { code: 'INVALID_RESPONSE', message: /an update event of .* to match its schema/ })
  }
})

t.test('featureFlags above 2^53 come through exactly', async (t) => {
  // mainnet01's first 530,500 blocks carry any feature flags (the real node checks none there).
  const source = await openStore({ path: freshFolder(t), network: 'mainnet01' })
  t.teardown(() => source.close())
  const parent = source.cut().get(0)!
  const payload = makePayload('flags')
  const flags = (1n << 60n) + 3n
  const header = mineChildHeader(parent, {
    creationTime: parent.creationTime + 30_000_000,
    adjacentParents: parent.adjacents.map(([chain]) => genesisBlock(source.network, chain).header),
    payloadHash: decodeHash(payload.payloadHash),
    featureFlags: flags,
  })
  await source.insert({ header, payload })
  const upstream = await serveContract(t, source)
  const http = new HttpClient({ timeoutMs: 1000, maxSockets: 2 })
  t.teardown(() => http.close())
  const api = new UpstreamApi(await discoverUpstream(upstream.url, { http }), http, false)
  const page = await api.blockPage(0, { minheight: 1 }, new AbortController().signal)
  t.equal(page.blocks[0]?.header.featureFlags, flags)
  t.ok(page.blocks[0]?.header.hash.equals(header.hash))
})
