// `pnpm docs:endpoints`: writes the generated pages of docs/ (docs-tables.ts) from the OpenAPI
// document each profile serves. test/docs-tables.ts fails while a committed page is stale.
import { writeFileSync } from 'node:fs'
import { generatedPages, renderEndpoints, renderObjects } from './docs-tables.js'
import { type OpenApiJson, type ProfileName, profileNames, servedDocument } from './openapi-documents.js'

const root = new URL('../../../', import.meta.url)
const documents = {} as Record<ProfileName, OpenApiJson>
for (const profile of profileNames) documents[profile] = await servedDocument(profile)
const pages: Array<[string, string]> = [
  ...profileNames.map((profile): [string, string] => [generatedPages.endpoints(profile), renderEndpoints(profile, documents[profile])]),
  [generatedPages.objects, renderObjects(documents)],
]
for (const [path, text] of pages) {
  writeFileSync(new URL(path, root), text)
  process.stdout.write(`${path}\n`)
}
