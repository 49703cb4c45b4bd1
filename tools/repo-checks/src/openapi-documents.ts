// The OpenAPI document each profile serves, fetched from a node started for the purpose on 127.0.0.1
// (any port, a scratch store, no producer, network `development`): `pnpm openapi:lint` lints them,
// `pnpm docs:endpoints` writes docs/ from them.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '@weft/server'

/** The profiles, in the order their documents are written. */
export const profileNames = ['spec', 'chainweb'] as const
/** A profile's name. */
export type ProfileName = (typeof profileNames)[number]

/** An OpenAPI document as JSON. */
export type OpenApiJson = Record<string, unknown>

/** Starts a node of `profile`, fetches its `/openapi.json` and closes it. */
export async function servedDocument(profile: ProfileName): Promise<OpenApiJson> {
  const data = mkdtempSync(join(tmpdir(), 'weft-openapi-'))
  const node = await startServer({ host: '127.0.0.1', port: 0, data, network: 'development', profile, devnet: false, logLevel: 'silent' })
  try {
    const response = await fetch(`${node.url}/openapi.json`)
    if (response.status !== 200) throw new Error(`Expected 200 from ${node.url}/openapi.json, received ${response.status}`)
    return (await response.json()) as OpenApiJson
  } finally {
    await node.close()
    rmSync(data, { recursive: true, force: true })
  }
}
