import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { freshFolder } from '@weft/test-kit'
import t from 'tap'
import { createClient, InvalidResponseError } from '../src/index.js'
import { filledNode, serveData } from './fixtures/nodes.js'

t.test('the connection to a node', async (t) => {
  const { server, data } = await filledNode(t)

  t.test('the network and profile are found again after a failed discovery', async (t) => {
    const stopped = await serveData(t, { data: freshFolder(t) })
    await stopped.close()
    let calls = 0
    const flaky = createClient({
      url: server.url,
      fetch: async (input, init) => (++calls === 1 ? fetch(`${stopped.url}/info`, init) : fetch(input, init)),
    })
    await t.rejects(flaky.target(), { code: 'NETWORK_ERROR' })
    t.same(await flaky.target(), { network: 'development', profile: 'spec' })
  })

  t.test('validation notices a body of the other profile', async (t) => {
    await server.close()
    const chainweb = await serveData(t, { data, profile: 'chainweb' })
    // A client told `spec` but answered in chainweb names: validation notices the foreign header key.
    const misled = createClient({
      url: chainweb.url,
      network: 'development',
      profile: 'spec',
      validate: true,
      fetch: (input, init) => fetch(String(input).replace('/chain/0.0/', '/chainweb/0.0/'), init),
    })
    await t.rejects(misled.blockPage(2, { limit: 1 }), InvalidResponseError)
    await t.rejects(misled.blockPage(2, { limit: 1 }), { code: 'INVALID_RESPONSE' })
    const lenient = createClient({
      url: chainweb.url,
      network: 'development',
      profile: 'spec',
      fetch: (input, init) => fetch(String(input).replace('/chain/0.0/', '/chainweb/0.0/'), init),
    })
    t.equal((await lenient.blockPage(2, { limit: 1 })).items.length, 1, 'without validation the body is returned as is')
  })
})

t.test('a base path in the URL names the profile and network, and the root is below it', async (t) => {
  const { server } = await filledNode(t, { blocks: 20 })
  const asked: string[] = []
  const client = createClient({
    url: `${server.url}/chain/0.0/development/`,
    fetch: (input, init) => {
      asked.push(new URL(String(input)).pathname)
      return fetch(input, init)
    },
  })
  t.same(await client.target(), { network: 'development', profile: 'spec' })
  t.equal(client.url, server.url)
  t.equal((await client.blockPage(0, { limit: 1 })).items.length, 1)
  t.same(asked, ['/chain/0.0/development/chain/0/block'], 'nothing asked to find out what the path says')
})

t.test('a node whose /info names no network cannot be spoken to; one without a version header is taken for spec', async (t) => {
  let body = '{"nodeVersion":7}'
  const peer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(body)
  })
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve))
  t.teardown(() => peer.close())
  const url = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`
  await t.rejects(createClient({ url }).target(), {
    code: 'INVALID_RESPONSE',
    message: `Expected GET ${url}/info to name the node's network (nodeVersion), received 7`,
  })
  body = 'null'
  await t.rejects(createClient({ url }).target(), { code: 'INVALID_RESPONSE', message: /received none$/ })
  body = '{"nodeVersion":"testnet04"}'
  t.same(await createClient({ url }).target(), { network: 'testnet04', profile: 'spec' })
})
