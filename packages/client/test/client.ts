import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { encodeHash } from '@weft/hash-text'
import { freshFolder } from '@weft/test-kit'
import t from 'tap'
import { createClient, isTransient } from '../src/index.js'
import { filledNode, serveData } from './fixtures/nodes.js'

t.test('a client of a node in either profile', async (t) => {
  const { server, data } = await filledNode(t)
  const client = createClient({ url: `${server.url}/`, validate: true })

  t.test('info, health and the discovered network and profile match the node', async (t) => {
    t.same(await client.target(), { network: 'development', profile: 'spec' })
    t.equal((await client.info()).nodeVersion, 'development')
    t.equal(await client.health(), 'Health check OK.\n')
    t.equal(client.url, server.url, 'a trailing slash is dropped')
  })

  t.test('a chainweb-profile node is recognised by its version header', async (t) => {
    await server.close()
    const chainweb = await serveData(t, { data, profile: 'chainweb' })
    const cw = createClient({ url: chainweb.url, validate: true })
    t.same(await cw.target(), { network: 'development', profile: 'chainweb' })
    t.equal((await cw.info()).nodeVersion, 'development')
    t.equal(await cw.health(), 'Health check OK.\n')
  })
})

t.test('requests to a node', async (t) => {
  const { server } = await filledNode(t)

  t.test('an error body that claims JSON but is not is kept as text', async (t) => {
    const broken = createClient({
      url: server.url,
      fetch: async () => new Response('{oops', { status: 502, headers: { 'content-type': 'application/json' } }),
    })
    await t.rejects(broken.health(), { status: 502, body: '{oops', code: 'HTTP_ERROR', serverCode: 'HTTP_502' })
  })

  t.test('an unreachable node is a network error', async (t) => {
    const stopped = await serveData(t, { data: freshFolder(t) })
    await stopped.close()
    const unreachable = createClient({ url: stopped.url, network: 'development', profile: 'spec' })
    await t.rejects(unreachable.info(), { name: 'WeftNetworkError', code: 'NETWORK_ERROR', message: /ECONNREFUSED/ })
  })

  t.test('every request carries the extra headers, and a body its JSON content type', async (t) => {
    const sent: Array<{ method: string; headers: Record<string, string> }> = []
    const client = createClient({
      url: server.url,
      headers: { 'x-test': '1' },
      fetch: (input, init) => {
        sent.push({ method: String(init?.method), headers: { ...(init?.headers as Record<string, string>) } })
        return fetch(input, init)
      },
    })
    await client.health()
    await client.branchPage(0, { upper: [encodeHash(server.store.cut().get(0)!.hash)] })
    t.same(sent[0], { method: 'GET', headers: { 'x-test': '1' } })
    t.same(sent.at(-1), { method: 'POST', headers: { 'x-test': '1', 'content-type': 'application/json' } })
  })
})

t.test('a connection reset while the body arrives is a network error, worth a retry', async (t) => {
  // A peer that sends the status line and half a body, then resets the connection.
  const peer = createServer((request, response) => {
    const info = JSON.stringify({ nodeVersion: 'development', nodeChains: ['0'], nodeGenesisHeights: [['0', 0]] })
    response.writeHead(request.url === '/broken-error' ? 502 : 200, { 'content-type': 'application/json' })
    response.write(request.url === '/info' ? info.slice(0, 20) : '{"limit":1,"items":[')
    setTimeout(() => response.socket?.destroy(), 20)
  })
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    peer.closeAllConnections()
    peer.close()
  })
  const url = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`
  const client = createClient({ url, network: 'development', profile: 'spec' })
  for (const [what, request] of [
    ['info (json)', () => client.info()],
    ['blockPage (bytes)', () => client.blockPage(0)],
    ['health (text)', () => client.health()],
    ['an error body', () => createClient({ url: `${url}/broken-error` }).health()],
  ] as const) {
    const error = await request().catch((e: unknown) => e)
    t.match(error, { name: 'WeftNetworkError', code: 'NETWORK_ERROR', message: /^Expected an answer from/ }, what)
    t.ok(isTransient(error), `${what}: transient`)
  }
})
