// `pnpm openapi:lint`, first half: writes the /openapi.json each profile serves to
// <folder>/<profile>.json for `redocly lint` (the second half, in the root package.json).
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { profileNames, servedDocument } from './openapi-documents.js'

const folder = process.argv[2] ?? '.openapi'
mkdirSync(folder, { recursive: true })
for (const profile of profileNames) {
  const file = join(folder, `${profile}.json`)
  // Indented, so that redocly's messages point at readable lines.
  writeFileSync(file, `${JSON.stringify(await servedDocument(profile), null, 2)}\n`)
  process.stdout.write(`${file}\n`)
}
