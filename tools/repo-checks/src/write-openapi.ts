// `pnpm openapi:lint`, first half: starts a node per profile on 127.0.0.1 (any port, a scratch store,
// no producer), fetches the /openapi.json it serves and writes it to <folder>/<profile>.json for
// `redocly lint` (the second half, in the root package.json).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '@weft/server'

const folder = process.argv[2] ?? '.openapi'
mkdirSync(folder, { recursive: true })
for (const profile of ['spec', 'chainweb'] as const) {
  const data = mkdtempSync(join(tmpdir(), 'weft-openapi-'))
  const node = await startServer({ host: '127.0.0.1', port: 0, data, network: 'development', profile, devnet: false, logLevel: 'silent' })
  try {
    const response = await fetch(`${node.url}/openapi.json`)
    if (response.status !== 200) throw new Error(`Expected 200 from ${node.url}/openapi.json, received ${response.status}`)
    const file = join(folder, `${profile}.json`)
    // Indented, so that redocly's messages point at readable lines.
    writeFileSync(file, `${JSON.stringify(await response.json(), null, 2)}\n`)
    process.stdout.write(`${file}\n`)
  } finally {
    await node.close()
    rmSync(data, { recursive: true, force: true })
  }
}
