import t from 'tap'
import { createClient } from '../src/index.js'
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
