import t from 'tap'
import { sendJson, startNode } from './fixtures/node.js'

// The shape the test reads of an OpenAPI document.
interface OpenApiDocument {
  openapi: string
  paths: Record<string, Record<string, unknown>>
  components: { schemas: Record<string, { required?: string[] }> }
}

t.test('the OpenAPI document is 3.1 and built from the shared schemas', async (t) => {
  const server = await startNode(t, { data: t.testdir(), network: 'development', profile: 'chainweb' })
  const doc = await sendJson<OpenApiDocument>(`${server.url}/openapi.json`)
  t.equal(doc.json.openapi, '3.1.0')
  t.ok(doc.json.paths['/chainweb/0.0/development/chain/{chain}/block']?.get)
  t.ok(doc.json.paths['/chainweb/0.0/development/chain/{chain}/block/branch']?.post)
  t.same(doc.json.components.schemas.BlockHeader?.required?.slice(0, 3), ['nonce', 'creationTime', 'parent'])
  t.ok(doc.json.components.schemas.ChainwebBlockPage)
  const refs = JSON.stringify(doc.json).match(/#\/components\/schemas\/\w+/g) ?? []
  for (const ref of new Set(refs)) t.ok(doc.json.components.schemas[ref.split('/').pop()!], `${ref} resolves`)
})
