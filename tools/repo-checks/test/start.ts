import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import t from 'tap'

const root = fileURLToPath(new URL('../../../', import.meta.url))

t.test('Ctrl-C under `pnpm start` stops the node and exits 0, with no package-manager noise after the logs begin', async (t) => {
  // Its own process group, as a terminal's foreground job: Ctrl-C signals the whole group (pnpm, sh, node).
  const child = spawn('pnpm', ['start'], {
    cwd: root,
    detached: true,
    env: { ...process.env, WEFT_PORT: '0', WEFT_DATA: t.testdir(), WEFT_BLOCK_DELAY: '1', TURBO_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk))
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('exit', (code, signal) => resolve([code, signal])),
  )
  const deadline = Date.now() + 300_000
  while (!out.includes('"msg":"listening"') && Date.now() < deadline && child.exitCode === null)
    await new Promise((resolve) => setTimeout(resolve, 100))
  t.match(out, /"msg":"listening"/, 'the node started')
  process.kill(-child.pid!, 'SIGINT')
  t.same(await exited, [0, null], 'exit code 0')
  const logStart = out.indexOf('{"level"')
  const lines = out.slice(logStart).trimEnd().split('\n')
  for (const line of lines) t.doesNotThrow(() => JSON.parse(line), `a JSON log line: ${line.slice(0, 80)}`)
  t.match(JSON.parse(lines.at(-1)!), { msg: 'stopped' })
  t.notMatch(out + err, /ELIFECYCLE|Command failed|ERR_PNPM/, 'no package-manager noise')
  t.equal(err, '', 'nothing on stderr')
})
