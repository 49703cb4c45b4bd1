import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { deviceReadAhead } from '@weft/store'
import { until } from '@weft/test-kit'
import t from 'tap'
import { nodeVersion, runCli } from '../src/index.js'
import { readAheadWarning } from '../src/operator/read-ahead-check.js'
import { captureIo, collect } from './fixtures/cli.js'
import { send } from './fixtures/node.js'

t.test('the command prints help with -h or --help, and its version with --version', async (t) => {
  for (const flag of ['--help', '-h']) {
    const run = captureIo()
    t.equal(await runCli([flag], {}, run.io), undefined)
    t.equal(await run.exited, 0)
    t.match(run.out(), /^Usage: weft-server/)
    t.match(run.out(), /--config <file> +WEFT_CONFIG/)
  }
  const run = captureIo()
  await runCli(['--version'], {}, run.io)
  t.equal(await run.exited, 0)
  t.equal(run.out(), `${nodeVersion}\n`)
})

t.test('the command refuses a bad flag, a bad setting and a contradiction with exit code 2 and a JSON log line', async (t) => {
  for (const [argv, env, message] of [
    [['--network', 'nowhere'], {}, /^cannot start: Expected network/],
    [['--port'], {}, /^cannot start: .*--port/],
    [[], { WEFT_FORK_RATE: '2' }, /^cannot start: Expected fork rate/],
    [['--network', 'mainnet01', '--devnet'], {}, /not on mainnet01, a real network.*Fix: turn the producer off \(--no-devnet\)/],
    [['--config', '/nonexistent/weft.json'], {}, /Expected a readable configuration file at \/nonexistent\/weft\.json/],
  ] as const) {
    const run = captureIo()
    await runCli(argv, env, run.io)
    t.equal(await run.exited, 2, argv.join(' '))
    const [line, ...more] = run.lines()
    t.same(more, [], 'one line')
    t.match(line, { level: 60, name: 'weft-server', code: 'INVALID_CONFIG', msg: message })
    t.equal(run.err(), '', 'nothing but the log')
  }
})

t.test('a store that cannot be opened exits 1 with the cause and the fix', async (t) => {
  const data = t.testdir({ 'notes.txt': 'mine' })
  const run = captureIo()
  await runCli(['--port', '0', '--data', data], {}, run.io)
  t.equal(await run.exited, 1)
  t.match(run.lines().at(-1), {
    level: 60,
    code: 'NOT_A_STORE',
    msg: /holds other files \(notes\.txt\)\. Fix: give --data a new or empty folder/,
  })
})

t.test('--print-config prints each effective value and its source: flag over variable over file over default', async (t) => {
  const dir = t.testdir()
  const file = join(dir, 'weft.json')
  writeFileSync(file, JSON.stringify({ port: 9000, 'log-level': 'warn', profile: 'chainweb', keepAlive: '30', devnet: false }))
  const run = captureIo()
  await runCli(['--print-config', '--config', file, '--port', '7000'], { WEFT_LOG_LEVEL: 'debug', WEFT_DATA: '/srv/weft' }, run.io)
  t.equal(await run.exited, 0)
  const rows = new Map(
    run
      .out()
      .trimEnd()
      .split('\n')
      .map((line) => {
        const [name, value, ...source] = line.split(/ {2,}/)
        return [name, [value, source.join(' ')]] as const
      }),
  )
  t.same(rows.get('port'), ['7000', '--port'])
  t.same(rows.get('logLevel'), ['"debug"', 'WEFT_LOG_LEVEL'])
  t.same(rows.get('data'), ['"/srv/weft"', 'WEFT_DATA'])
  t.same(rows.get('profile'), ['"chainweb"', `file ${file}`])
  t.same(rows.get('keepAlive'), ['30', `file ${file}`])
  t.same(rows.get('devnet'), ['false', `file ${file}`])
  t.same(rows.get('host'), ['"127.0.0.1"', 'default'])
  t.same(rows.get('blockDelay'), ["(none: the network's)", 'default'])
  t.same(rows.get('bodyLimit'), [String(2 * 1024 * 1024), 'default'])
  const fromEnv = captureIo()
  await runCli(['--print-config'], { WEFT_CONFIG: file }, fromEnv.io)
  t.equal(await fromEnv.exited, 0)
  t.match(fromEnv.out(), /^port +9000 +file /m, 'WEFT_CONFIG names the file when --config is absent')
})

t.test('the command logs its configuration and where it listens as JSON, and shuts down on SIGINT', async (t) => {
  const run = captureIo()
  const data = t.testdir()
  const running = await runCli(['--port', '0', '--profile', 'chainweb'], { WEFT_DATA: data, WEFT_NETWORK: 'mainnet01' }, run.io)
  // A disk that reads ahead too much is named once, as a warning with the fix, between the two.
  const readAhead = readAheadWarning(data, await deviceReadAhead(data))
  const warnings = run.lines().filter((line) => line.level === 40)
  t.equal(warnings.length, readAhead === undefined ? 0 : 1, `read-ahead ${readAhead?.fields.readAheadKiB ?? 'within the limit or unknown'}`)
  if (readAhead !== undefined) t.match(warnings[0], { ...readAhead.fields, msg: readAhead.message })
  const [configuration, listening] = run.lines().filter((line) => line.level !== 40)
  t.match(configuration, {
    level: 30,
    msg: 'configuration',
    config: { network: 'mainnet01', profile: 'chainweb', port: 0 },
    sources: { network: 'WEFT_NETWORK', port: '--port', host: 'default' },
  })
  t.match(listening, { level: 30, msg: 'listening', url: running!.url, network: 'mainnet01', profile: 'chainweb', devnet: false })
  t.match(running!.url, /^http:\/\/127\.0\.0\.1:\d+$/)
  t.equal((await send(`${running!.url}/chainweb/0.0/mainnet01/cut`)).status, 200)
  run.signals.emit('SIGINT')
  run.signals.emit('SIGTERM')
  t.equal(await run.exited, 0)
  t.match(
    run.lines().filter((line) => line.msg !== undefined && line.method === undefined && line.level !== 40),
    [{ msg: 'configuration' }, { msg: 'listening' }, { msg: 'shutting down', signal: 'SIGINT' }, { msg: 'stopped' }],
  )
  await t.rejects(send(`${running!.url}/health-check`, {}), { code: 'ECONNREFUSED' })
})

const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url))

t.test('the bin writes only JSON lines: where it listens, each request, and its stop on SIGTERM', async (t) => {
  // Same loader flags as this test process, so the TypeScript source runs as the built bin would.
  const child = spawn(process.execPath, [...process.execArgv, cli, '--port', '0', '--network', 'test-singleton', '--block-delay', '0.05'], {
    env: { ...process.env, WEFT_DATA: t.testdir(), WEFT_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const out = collect(child.stdout!)
  const err = collect(child.stderr!)
  const exited = new Promise((resolve) => child.on('exit', resolve))
  const lines = () =>
    out()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
  await until(() => lines().some((line) => line.msg === 'listening'), 'the listening log line')
  const listening = lines().find((line) => line.msg === 'listening')!
  t.match(listening, { level: 30, name: 'weft-server', network: 'test-singleton', profile: 'spec', devnet: true })
  const url = listening.url as string
  t.equal((await send(`${url}/health-check`)).status, 200)
  await until(() => lines().some((line) => line.url === '/health-check'), 'the logged request of /health-check')
  t.match(
    lines().find((line) => line.url === '/health-check'),
    { level: 30, method: 'GET', url: '/health-check', status: 200 },
  )
  child.kill('SIGTERM')
  t.equal(await exited, 0, 'a clean exit')
  t.match(lines().at(-1), { msg: 'stopped' })
  t.ok(lines().some((line) => line.msg === 'shutting down' && line.signal === 'SIGTERM'))
  t.equal(err(), '', 'nothing on stderr')
})
