import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import t from 'tap'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../../../', import.meta.url))
const versionOf = (folder: string): string =>
  (JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')) as { version: string }).version

t.test("`pnpm bins`'s npm install puts weft-server, weft and weft-devnet on the PATH", async (t) => {
  // The install of the root script `bins`, into a scratch prefix instead of npm's global one.
  const script = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { bins: string } }).scripts.bins
  const install = script.slice(script.indexOf('npm i -g')).split(' ')
  t.same(install.slice(0, 3), ['npm', 'i', '-g'])
  const prefix = t.testdir()
  await run('npm', [...install.slice(1), '--prefix', prefix], { cwd: root })
  for (const [bin, folder] of [
    ['weft-server', 'apps/server'],
    ['weft', 'apps/cli'],
    ['weft-devnet', 'packages/devnet'],
  ] as const) {
    const { stdout } = await run(join(prefix, 'bin', bin), ['--version'])
    t.equal(stdout, `${versionOf(folder)}\n`, `${bin} --version`)
  }
})
