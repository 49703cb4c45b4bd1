import { parseNodeUrl } from '@weft/api'
import { openStore } from '@weft/store'
import { freshFolder } from '@weft/test-kit'
import t from 'tap'
import { HttpClient } from '../src/http-client.js'
import { discoverUpstream, parseUpstreamUrl } from '../src/upstream-target.js'
import { serveContract } from './fixtures/contract-server.js'

t.test("an upstream URL is @weft/api's node URL; one that is not is an option error", async (t) => {
  t.same(parseUpstreamUrl('https://h/chainweb/0.0/mainnet01/'), parseNodeUrl('https://h/chainweb/0.0/mainnet01/'))
  t.throws(() => parseUpstreamUrl('ftp://h'), {
    code: 'INVALID_INGEST_OPTION',
    message: 'Expected an upstream to be an http or https URL, received "ftp://h"',
  })
  t.throws(() => parseUpstreamUrl('http://h/?a=1'), { code: 'INVALID_INGEST_OPTION', message: /a URL without query or fragment/ })
})

t.test('discovery finds the network and the profile, and refuses another network with the fix in its message', async (t) => {
  const store = await openStore({ path: freshFolder(t), network: 'test-singleton' })
  t.teardown(() => store.close())
  const spec = await serveContract(t, store, 'spec')
  const chainweb = await serveContract(t, store, 'chainweb')
  t.match(await discoverUpstream(spec.url), {
    url: spec.url,
    root: spec.url,
    base: `${spec.url}/chain/0.0/test-singleton`,
    network: 'test-singleton',
    profile: 'spec',
    nodeVersion: 'test',
  })
  t.match(await discoverUpstream(`${chainweb.url}/`, { network: 'test-singleton' }), {
    profile: 'chainweb',
    base: `${chainweb.url}/chainweb/0.0/test-singleton`,
  })
  t.match(await discoverUpstream(spec.url, { profile: 'chainweb' }), { profile: 'chainweb' }, 'a profile given is believed')
  const http = new HttpClient({ timeoutMs: 1000, maxSockets: 1 })
  t.teardown(() => http.close())
  t.match(await discoverUpstream(`${spec.url}/chainweb/0.0/test-singleton`, { http }), { profile: 'chainweb' }, 'so is the path')
  await t.rejects(discoverUpstream(spec.url, { network: 'mainnet01' }), {
    code: 'UPSTREAM_NETWORK_MISMATCH',
    message: `Expected upstream ${spec.url} to serve mainnet01, the network of this node, but it serves test-singleton: start the node with --network test-singleton, or choose an upstream of mainnet01`,
  })
  await t.rejects(
    discoverUpstream(`${spec.url}/chain/0.0/development`, { network: 'test-singleton' }),
    { code: 'UPSTREAM_NETWORK_MISMATCH' },
    'the path alone refuses, before any request',
  )
  await t.rejects(discoverUpstream(`${spec.url}/chain/0.0/development`), {
    code: 'UPSTREAM_NETWORK_MISMATCH',
    message: /its path names.*fix the URL/,
  })
})

t.test('an upstream that is recognisably neither a chainweb-node nor a Weft is refused', async (t) => {
  const store = await openStore({ path: freshFolder(t), network: 'test-singleton' })
  t.teardown(() => store.close())
  const upstream = await serveContract(t, store, 'spec')
  const answers: Record<string, [Record<string, string>, string]> = {
    '/a/info': [{}, '{"nodeVersion":"test-singleton"}'],
    '/b/info': [{ 'x-chain-node-version': '1' }, '{"nodeVersion":"other"}'],
    '/c/info': [{ 'x-chain-node-version': '1' }, '<html>'],
  }
  upstream.intercept = (_req, res, path) => {
    const answer = answers[path]
    if (answer === undefined) return false
    res.writeHead(200, answer[0])
    res.end(answer[1])
    return true
  }
  await t.rejects(discoverUpstream(`${upstream.url}/a`), {
    code: 'UPSTREAM_UNRECOGNISED',
    message: /neither.*\.\.\.\/chainweb\/0\.0\/test-singleton/,
  })
  t.match(
    await discoverUpstream(`${upstream.url}/a/chain/0.0/test-singleton`),
    { profile: 'spec' },
    'the path tells what the headers do not',
  )
  await t.rejects(discoverUpstream(`${upstream.url}/b`), { code: 'UPSTREAM_UNRECOGNISED', message: /received "other"/ })
  await t.rejects(discoverUpstream(`${upstream.url}/c`), { code: 'INVALID_RESPONSE', message: /info to answer JSON/ })
  await t.rejects(discoverUpstream('http://127.0.0.1:1'), { code: 'NETWORK_ERROR', message: /ECONNREFUSED/ })
})
