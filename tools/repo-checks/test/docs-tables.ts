import { execFile } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import t from 'tap'
import { generatedPages, renderEndpoints, renderObjects } from '../src/docs-tables.js'
import { type OpenApiJson, type ProfileName, profileNames, servedDocument } from '../src/openapi-documents.js'

const root = fileURLToPath(new URL('../../../', import.meta.url))

t.test("docs/'s generated pages are what the nodes' OpenAPI documents render today (else: pnpm docs:endpoints)", async (t) => {
  const documents = {} as Record<ProfileName, OpenApiJson>
  for (const profile of profileNames) documents[profile] = await servedDocument(profile)
  for (const profile of profileNames) {
    const fresh = renderEndpoints(profile, documents[profile])
    t.match(fresh, /\| GET \| `\/(chain|chainweb)\/0\.0\/development\/chain\/\{chain\}\/block` \|/, `${profile}: GET block is a row`)
    t.match(
      fresh,
      /`\/[a-z]+\/0\.0\/development\/header\/updates` \| `text\/event-stream` \| \[\w*HeaderUpdateEvent\]/,
      `${profile}: its events`,
    )
    t.equal(
      readFileSync(join(root, generatedPages.endpoints(profile)), 'utf8'),
      fresh,
      `${generatedPages.endpoints(profile)} is up to date`,
    )
  }
  const objects = renderObjects(documents)
  t.match(objects, /## ChainwebBlockHeader\n\nchainweb: object:/, 'a profile-only object says its profile')
  t.equal(readFileSync(join(root, generatedPages.objects), 'utf8'), objects, `${generatedPages.objects} is up to date`)
})

t.test('a summary changed in a document changes its endpoint page', async (t) => {
  const document = await servedDocument('spec')
  const before = renderEndpoints('spec', document)
  const info = (document.paths as Record<string, { get: { summary: string } }>)['/info']!
  info.get.summary = 'Something else | entirely'
  const after = renderEndpoints('spec', document)
  t.not(after, before)
  t.match(after, 'Something else \\| entirely', 'a pipe in a cell is escaped')
})

// `pnpm run docs` as CI runs it: TypeDoc on every published package with the root's options (a
// warning is an error), about 28 s of CPU.
t.test('TypeDoc documents every published package without a warning', async (t) => {
  const main = fileURLToPath(import.meta.resolve('typedoc'))
  const bin = join(dirname(main), '..', 'bin', 'typedoc')
  const out = t.testdir()
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, '--options', 'typedoc.config.mjs', '--out', out], {
    cwd: root,
  })
  t.notMatch(`${stdout}${stderr}`, /\[(warning|error)\]/, 'no warning and no error')
  const published = [...readdirSync(join(root, 'packages')).map((name) => join('packages', name)), 'apps/server']
    .map((folder) => JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')) as { name: string; private?: boolean })
    .filter((manifest) => manifest.private !== true)
    .map((manifest) => manifest.name)
  const pages = readdirSync(join(out, 'modules'))
  t.same(
    published.filter((name) => !pages.includes(`${name.replace('@', '_').replace('/', '_')}.html`)),
    [],
    `a page for each of the ${published.length} published packages`,
  )
})
