import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import t from 'tap'

const root = fileURLToPath(new URL('../../../', import.meta.url))

interface Manifest {
  name: string
  private?: boolean
  dependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
}

// `api, errors (types)`: the @weft dependencies, sorted, then the peers in parentheses.
function dependsOn(manifest: Manifest): string {
  const weft = (deps: Record<string, string> | undefined) =>
    Object.keys(deps ?? {})
      .filter((name) => name.startsWith('@weft/'))
      .map((name) => name.slice('@weft/'.length))
      .sort()
  const peers = weft(manifest.peerDependencies)
  return [weft(manifest.dependencies).join(', '), peers.length > 0 ? `(${peers.join(', ')})` : ''].filter(Boolean).join(' ')
}

t.test("the root README's tour names every published package with the dependencies its package.json declares", async (t) => {
  const readme = readFileSync(`${root}README.md`, 'utf8')
  const rows = new Map(
    [...readme.matchAll(/^\| \[`(@weft\/[a-z-]+)`\]\(([^)]+)\) \|([^|]*)\|/gm)].map(([, name = '', folder = '', deps = '']) => [
      name,
      { folder, deps: deps.trim() },
    ]),
  )
  const published = ['packages', 'apps'].flatMap((group) =>
    readdirSync(`${root}${group}`).map((folder) => ({
      folder: `${group}/${folder}`,
      manifest: JSON.parse(readFileSync(`${root}${group}/${folder}/package.json`, 'utf8')) as Manifest,
    })),
  )
  t.ok(published.length >= 10, `${published.length} packages`)
  for (const { folder, manifest } of published.filter(({ manifest }) => manifest.private !== true)) {
    const row = rows.get(manifest.name)
    t.ok(row, `${manifest.name} has a row`)
    t.equal(row?.folder, folder, `${manifest.name} links its folder`)
    t.equal(row?.deps, dependsOn(manifest), `${manifest.name} depends on what its package.json says`)
  }
  t.equal(
    dependsOn({ name: 'x', dependencies: { '@weft/b': '1', '@weft/a': '1', other: '1' }, peerDependencies: { '@weft/c': '1' } }),
    'a, b (c)',
  )
})
