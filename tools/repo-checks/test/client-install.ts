// The light client as its users get it: @weft/client and the workspace packages it needs at run time,
// each packed by pnpm (which writes real version ranges for `workspace:`), then installed by plain npm
// in an empty folder, offline: every package comes from our tarballs, nothing from a registry.
import { execFile } from 'node:child_process'
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import t from 'tap'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../../../', import.meta.url))
const LIMIT = 1024 * 1024

interface Manifest {
  name: string
  dependencies?: Record<string, string>
  scripts?: Record<string, string>
}

const manifestOf = (folder: string): Manifest => JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Manifest

/** The workspace folders of @weft/client and of every workspace package it depends on at run time (dependencies only, not peers). */
function runtimeFolders(): string[] {
  const folderOf = new Map<string, string>()
  for (const group of ['packages', 'apps']) {
    for (const name of readdirSync(join(root, group))) folderOf.set(manifestOf(join(root, group, name)).name, join(root, group, name))
  }
  const seen = new Set<string>()
  const visit = (name: string): void => {
    if (seen.has(name)) return
    seen.add(name)
    for (const dependency of Object.keys(manifestOf(folderOf.get(name)!).dependencies ?? {})) {
      if (folderOf.has(dependency)) visit(dependency)
    }
  }
  visit('@weft/client')
  return [...seen].map((name) => folderOf.get(name)!)
}

/** Every file below `folder` (links not followed), with its bytes on disk (blocks) and its length. */
function walk(folder: string, found: Array<{ path: string; disk: number; size: number }> = []) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name)
    const stats = lstatSync(path)
    found.push({ path, disk: stats.blocks * 512, size: stats.isFile() ? stats.size : 0 })
    if (entry.isDirectory()) walk(path, found)
  }
  return found
}

t.test('npm i of the packed client installs no native module, under 1 MB, and the client imports', async (t) => {
  const folders = runtimeFolders()
  t.ok(folders.length >= 2, `${folders.length} packages packed: ${folders.map((folder) => manifestOf(folder).name).join(', ')}`)
  // Outside the repository: inside it, npm would take the nearest package.json above as the project.
  const scratch = mkdtempSync(join(tmpdir(), 'weft-client-install-'))
  t.teardown(() => rmSync(scratch, { recursive: true, force: true }))
  const out = join(scratch, 'tarballs')
  await Promise.all(folders.map((folder) => run('pnpm', ['pack', '--pack-destination', out], { cwd: folder })))
  const packed = readdirSync(out).map((name) => join(out, name))
  t.equal(packed.length, folders.length, 'one tarball a package')

  // No registry: `--offline` fails the install (rather than fetch) if anything is not one of the tarballs.
  const install = join(scratch, 'install')
  const npm = [
    '--prefix',
    install,
    '--offline',
    '--cache',
    join(scratch, 'cache'),
    '--ignore-scripts',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
  ]
  await run('npm', ['i', ...npm, ...packed], { cwd: scratch })

  const files = walk(join(install, 'node_modules'))
  const manifests = files
    .filter((file) => /node_modules\/(@[^/]+\/)?[^/]+\/package\.json$/.test(file.path))
    .map((file) => manifestOf(join(file.path, '..')))
  t.same(
    manifests.map((manifest) => manifest.name).sort(),
    folders.map((folder) => manifestOf(folder).name).sort(),
    'exactly the packed packages are installed: nothing else (no store, ingest, block, types or TypeBox)',
  )
  t.same(
    files.filter((file) => file.path.endsWith('.node') || file.path.endsWith('binding.gyp')).map((file) => file.path),
    [],
    'no native module: no .node file, no binding.gyp',
  )
  t.same(
    manifests
      .filter((manifest) => Object.keys(manifest.scripts ?? {}).some((name) => /^(pre|post)?install$/.test(name)))
      .map((m) => m.name),
    [],
    'no install scripts',
  )
  const disk = files.reduce((sum, file) => sum + file.disk, 0)
  const size = files.reduce((sum, file) => sum + file.size, 0)
  t.ok(disk < LIMIT, `${Math.round(disk / 1024)} KB on disk (${Math.round(size / 1024)} KB of files), under 1 MB`)

  // The installed client, imported from the install folder (not the workspace's links): its exports, and
  // `validate: true` without @weft/types refused with the option's error, before any request.
  const script = `
    const client = await import('@weft/client')
    const weft = client.createClient({ url: 'http://127.0.0.1:9/chainweb/0.0/development', validate: true })
    const refused = await weft.info().then(() => 'answered', (error) => error.code)
    console.log(JSON.stringify({ createClient: typeof client.createClient, refused }))`
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: install })
  t.same(JSON.parse(stdout), { createClient: 'function', refused: 'INVALID_CLIENT_OPTION' })
})
