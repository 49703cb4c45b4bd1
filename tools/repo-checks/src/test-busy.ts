// `pnpm test:busy`: `pnpm test` as CI runs it, turbo's cache bypassed and every package run even after
// a failure, while busy processes keep every core loaded; then a report of counts, failures and the
// slowest files. A suite that passes only on a quiet machine fails in CI one day at random.
import { type ChildProcess, spawn } from 'node:child_process'
import { createWriteStream, mkdtempSync, readFileSync } from 'node:fs'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { formatTapReport, readTapOutput } from './tap-report.js'

const USAGE = `Usage: pnpm test:busy [--load N]

Runs pnpm test (no turbo cache, every package) while N busy processes, one core each, compete with
it (default: one per core, ${availableParallelism()} here), then reports counts, failures and the slowest files.`

const root = fileURLToPath(new URL('../../../', import.meta.url))
const { values } = parseArgs({ options: { load: { type: 'string' }, help: { type: 'boolean', short: 'h' } } })
if (values.help === true) {
  console.log(USAGE)
  process.exit(0)
}
const load = values.load === undefined ? availableParallelism() : Number(values.load)
if (!Number.isInteger(load) || load < 0) {
  console.error(`test:busy: Expected --load to be a number of busy processes, 0 or more, received ${values.load}\n\n${USAGE}`)
  process.exit(2)
}

// Plain CPU, no I/O: what another build or benchmark on the machine costs the suite.
const busy: ChildProcess[] = Array.from({ length: load }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }))
const stopLoad = (): void => {
  for (const child of busy) child.kill('SIGKILL')
}
process.on('exit', stopLoad)
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    stopLoad()
    process.exit(130)
  })

const log = join(mkdtempSync(join(tmpdir(), 'weft-test-busy-')), 'test.log')
const out = createWriteStream(log)
const averageNow = (): string =>
  loadavg()
    .map((average) => average.toFixed(1))
    .join(' ')
const before = averageNow()
console.log(`test:busy: pnpm test with ${load} busy processes; load average ${before}; the whole output goes to ${log}`)
const started = performance.now()
const run = spawn('pnpm', ['run', 'test', '--force', '--continue'], {
  cwd: root,
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' },
  stdio: ['ignore', 'pipe', 'pipe'],
})
// The terminal gets each package's closing count as it comes; the log gets everything.
let partial = ''
run.stdout.on('data', (chunk: Buffer) => {
  out.write(chunk)
  const lines = (partial + chunk.toString()).split('\n')
  partial = lines.pop() ?? ''
  for (const line of lines) if (/:test: # \{ total:/.test(line)) console.log(line)
})
run.stderr.on('data', (chunk: Buffer) => out.write(chunk))
const code = await new Promise<number>((resolve) => run.on('close', (status) => resolve(status ?? 1)))
const seconds = (performance.now() - started) / 1000
stopLoad()
await new Promise<void>((resolve) => out.end(resolve))

const report = readTapOutput(readFileSync(log, 'utf8'))
console.log(
  `test:busy: ${(seconds / 60).toFixed(1)} min with ${load} busy processes; load average ${before} at the start, ${averageNow()} at the end`,
)
for (const line of formatTapReport(report)) console.log(line)
if (code !== 0) console.log(`pnpm test exited with status ${code}; the whole output: ${log}`)
process.exitCode = code !== 0 || report.fail > 0 || report.pass === 0 ? 1 : 0
