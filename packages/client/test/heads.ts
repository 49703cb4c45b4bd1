import { encodeHash } from '@weft/hash-text'
import t from 'tap'
import { createClient } from '../src/index.js'
import { filledNode, serveData } from './fixtures/nodes.js'

t.test('heads of a node over a store with forks, in both profiles', async (t) => {
  const { server, data } = await filledNode(t, { blocks: 300 })
  const client = createClient({ url: server.url })

  t.test('heads equal the store cut, with GET cut or by searching when the node has none', async (t) => {
    const cut = server.store.cut()
    const expected = [...cut].map(([chain, h]) => [chain, encodeHash(h.hash)])
    const fromCut = await client.heads()
    t.same(
      [...fromCut].map(([chain, h]) => [chain, h.hash]).sort((a, b) => Number(a[0]) - Number(b[0])),
      expected,
    )
    let cutRequests = 0
    const withoutCut = createClient({
      url: server.url,
      fetch: async (input, init) => {
        if (String(input).endsWith('/cut')) {
          cutRequests += 1
          return new Response('Not Found', { status: 404 })
        }
        return fetch(input, init)
      },
    })
    const searched = await withoutCut.heads([0, 3, 19])
    t.same(
      [...searched].map(([chain, h]) => [chain, h.hash]).sort((a, b) => Number(a[0]) - Number(b[0])),
      expected.filter(([chain]) => [0, 3, 19].includes(Number(chain))),
    )
    await withoutCut.heads([1])
    t.equal(cutRequests, 1, 'a node without GET cut is asked only once')
  })

  t.test('a chainweb-profile node gives the same head', async (t) => {
    await server.close()
    const chainweb = await serveData(t, { data, profile: 'chainweb' })
    const head = chainweb.store.cut().get(2)!
    const heads = await createClient({ url: chainweb.url, validate: true }).heads([2])
    t.equal(heads.get(2)?.hash, encodeHash(head.hash))
  })
})
