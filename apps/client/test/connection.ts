import t from 'tap'
import { createClient, InvalidResponseError } from '../src/index.js'
import { filledNode, freshFolder, serveData } from './fixtures/nodes.js'

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
