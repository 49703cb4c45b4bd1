import t from 'tap'
import { createFetchTransport, describeNode } from '../src/index.js'
import { json, mainnetInfo, serveNode } from './fixtures/node.js'

const { send } = createFetchTransport()

t.test("a node's profile comes from its version header, its network from /info", async (t) => {
  for (const profile of ['spec', 'chainweb'] as const) {
    const node = await serveNode(t, profile)
    t.same(await describeNode(send, `${node.url}/`), {
      url: node.url,
      root: node.url,
      profile,
      infoNetwork: 'mainnet01',
      pathNetwork: undefined,
      nodeVersion: 'mainnet01',
      info: mainnetInfo,
    })
  }
})

t.test('a profile given wins over the base path of the URL, the path over the header', async (t) => {
  const node = await serveNode(t, 'spec')
  t.match(await describeNode(send, `${node.url}/chainweb/0.0/testnet04`), {
    url: `${node.url}/chainweb/0.0/testnet04`,
    root: node.url,
    profile: 'chainweb',
    pathNetwork: 'testnet04',
    infoNetwork: 'mainnet01',
  })
  t.match(await describeNode(send, `${node.url}/chainweb/0.0/mainnet01`, { profile: 'spec' }), { profile: 'spec' })
  t.equal(node.requests.at(-1)?.path, '/info', '/info is asked at the root, below the base path')
})

t.test('a node that names no network and sends no version header is described as such', async (t) => {
  const node = await serveNode(t, 'spec')
  node.intercept = (_req, res) => {
    json(res, 200, '{"nodeVersion":7}')
    return true
  }
  t.match(await describeNode(send, `${node.url}/proxy`), {
    root: `${node.url}/proxy`,
    profile: undefined,
    infoNetwork: undefined,
    nodeVersion: undefined,
    info: { nodeVersion: 7 },
  })
  node.intercept = (_req, res) => {
    json(res, 200, 'null')
    return true
  }
  t.match(await describeNode(send, node.url), { infoNetwork: undefined, info: null })
})
