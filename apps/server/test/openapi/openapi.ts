import { Ajv2020 } from 'ajv/dist/2020.js'
import t from 'tap'
import { codesOf } from '../../src/openapi/openapi-errors.js'
import { profiles } from '../../src/profile/profiles.js'
import { send, sendJson, startNode } from '../fixtures/node.js'
import { checkAgainstDocument } from '../fixtures/openapi-check.js'

// The shape the test reads of an OpenAPI document.
interface OpenApiDocument {
  openapi: string
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, { required?: string[] }>; parameters: Record<string, { name: string; in: string }> }
}
interface Operation {
  parameters?: Array<{ $ref?: string; name?: string; in?: string }>
  responses: Record<string, { content?: Record<string, { schema: unknown; example?: unknown }> }>
  requestBody?: { content: Record<string, { schema: unknown; example?: unknown }> }
}

t.test('the OpenAPI document is 3.1 and built from the shared schemas', async (t) => {
  const server = await startNode(t, { data: t.testdir(), network: 'development', profile: 'chainweb' })
  const doc = await sendJson<OpenApiDocument>(`${server.url}/openapi.json`)
  t.equal(doc.json.openapi, '3.1.0')
  t.ok(doc.json.paths['/chainweb/0.0/development/chain/{chain}/block']?.get)
  t.ok(doc.json.paths['/chainweb/0.0/development/chain/{chain}/block/branch']?.post)
  t.same(doc.json.components.schemas.ChainwebBlockHeader?.required?.slice(0, 3), ['nonce', 'creationTime', 'parent'])
  t.ok(doc.json.components.schemas.ChainwebBlockPage)
  const refs = JSON.stringify(doc.json).match(/#\/components\/schemas\/\w+/g) ?? []
  for (const ref of new Set(refs)) t.ok(doc.json.components.schemas[ref.split('/').pop()!], `${ref} resolves`)
  // A JSON endpoint like the others: an Accept it cannot serve is 406.
  t.equal((await send(`${server.url}/openapi.json`, { headers: { accept: 'text/html' } })).status, 406)
  t.equal((await send(`${server.url}/openapi.json`, { headers: { accept: 'application/*' } })).status, 200)
})

for (const profile of ['spec', 'chainweb'] as const) {
  t.test(`${profile} profile: tuples are prefixItems, path parameters declared, errors in the profile's media types`, async (t) => {
    const server = await startNode(t, { data: t.testdir(), network: 'development', profile })
    const doc = (await sendJson<OpenApiDocument>(`${server.url}/openapi.json`)).json
    const text = JSON.stringify(doc)
    const schemas = JSON.stringify(doc.components.schemas)
    t.notMatch(text, /"additionalItems"/, 'no draft-07 tuple keyword')
    t.notMatch(schemas, /"items":\[/, 'no array-valued items')
    t.match(schemas, /"prefixItems":\[/, 'tuples (nodeGenesisHeights) as prefixItems')
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(item)) {
        // A shared parameter by reference, or one of the operation's own written out (chainweb-data's).
        const declared = (operation.parameters ?? []).map((parameter) =>
          parameter.$ref === undefined
            ? { name: parameter.name ?? '', in: parameter.in ?? '' }
            : doc.components.parameters[parameter.$ref.split('/').pop()!],
        )
        for (const [, name] of path.matchAll(/\{([^}]+)\}/g))
          t.ok(
            declared.some((parameter) => parameter?.name === name && parameter?.in === 'path'),
            `${method} ${path} declares {${name}}`,
          )
      }
    const base = `/${profile === 'spec' ? 'chain' : 'chainweb'}/0.0/development`
    const branch = doc.paths[`${base}/chain/{chain}/block/branch`]!.post!.responses
    for (const status of ['200', '400', '404', '405', '406', '413', '415', '500']) t.ok(branch[status], `branch documents ${status}`)
    const errorType = profile === 'spec' ? 'application/problem+json' : 'text/plain'
    for (const status of ['400', '405', '406', '413', '415']) t.ok(branch[status]?.content?.[errorType], `${status} as ${errorType}`)
    // The 404s of a branch, as the profile's table answers them: one media type per body kind.
    const mediaTypes = { problem: 'application/problem+json', text: 'text/plain', 'key-reason': 'application/json', empty: undefined }
    const branchCodes = [
      'NOT_FOUND',
      'INVALID_MAXHEIGHT',
      'INVALID_CURSOR',
      'CURSOR_NOT_FOUND',
      'NO_MATCHING_BLOCKS',
      'BLOCK_NOT_FOUND',
    ] as const
    const notFound = codesOf(profiles[profile], branchCodes)
      .map((code) => profiles[profile].errors[code])
      .filter((answer) => answer.status === 404)
      .flatMap((answer) => mediaTypes[answer.body] ?? [])
    t.same(Object.keys(branch['404']!.content ?? {}).sort(), [...new Set(notFound)].sort())
    t.ok(notFound.length > 0)
    const header = doc.paths[`${base}/chain/{chain}/header/{hash}`]!.get!.responses['200']!.content!
    t.same(Object.keys(header), ['application/json', 'application/json;blockheader-encoding=object', 'application/octet-stream'])
    t.ok(doc.paths[`${base}/header/updates`]!.get!.responses['200']!.content!['text/event-stream'])
    for (const path of ['/', '/metrics', '/status', '/search', '/openapi.json', '/health-check', '/info'])
      t.ok(doc.paths[path]?.get, `${path} documented`)
  })

  t.test(`${profile} profile: every example matches its schema`, async (t) => {
    const server = await startNode(t, { data: t.testdir(), network: 'development', profile })
    const doc = (await sendJson<OpenApiDocument>(`${server.url}/openapi.json`)).json
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    ajv.addSchema(doc, 'doc')
    let examples = 0
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(item)) {
        const media = [
          ...Object.entries(operation.responses).flatMap(([status, response]) =>
            Object.entries(response.content ?? {}).map(([type, entry]) => [`${status} ${type}`, entry] as const),
          ),
          ...Object.entries(operation.requestBody?.content ?? {}).map(([type, entry]) => [`body ${type}`, entry] as const),
        ]
        for (const [where, entry] of media) {
          if (entry.example === undefined) continue
          examples++
          const validate = ajv.compile(JSON.parse(JSON.stringify(entry.schema).replaceAll('"#/components', '"doc#/components')))
          t.ok(validate(entry.example), `${method} ${path} ${where}: ${ajv.errorsText(validate.errors)}`)
        }
      }
    t.ok(examples >= 30, `${examples} examples`)
  })
}

t.test('the response check refuses answers the document does not describe', async (t) => {
  const server = await startNode(t, { data: t.testdir(), network: 'development' })
  const json = { 'content-type': 'application/json;charset=utf-8' }
  const answer = (status: number, headers: Record<string, string>, body = '') => ({ status, headers, body: Buffer.from(body) })
  const cases: Array<[string, string, ReturnType<typeof answer>, RegExp]> = [
    ['GET', '/info', answer(418, json, '{}'), /status not documented for get \/info/],
    ['GET', '/info', answer(200, { 'content-type': 'text/csv' }, 'a,b'), /content type text\/csv not documented/],
    ['GET', '/info', answer(200, json, '{"nodeVersion":"moon"}'), /body does not match/],
    ['GET', '/elsewhere', answer(200, json, '{}'), /the path is not in the document/],
    ['GET', '/chain/0.0/development/chain/0/block', answer(404, {}), /an answer without a content type is not documented/],
  ]
  for (const [method, path, response, message] of cases)
    await t.rejects(checkAgainstDocument(`${server.url}${path}`, method, response), message, `${method} ${path} ${response.status}`)
  await checkAgainstDocument(
    `${server.url}/chain/0.0/development/chain/0/block/branch`,
    'GET',
    answer(405, { 'content-type': 'application/problem+json' }),
  )
  t.pass('a method the path does not answer is checked against its 405')
})
