import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import type { CliIo } from '@weft/command-line'
import { openStore } from '@weft/store'
import t from 'tap'
import { runCli } from '../src/run-cli.js'

// Collects what the CLI writes; `tty` makes stderr claim to be a terminal.
const capture = (options: { tty?: boolean; signal?: AbortSignal } = {}) => {
  const out: string[] = []
  const err: string[] = []
  const stdout = new PassThrough()
  stdout.on('data', (chunk: Buffer) => out.push(chunk.toString()))
  const stderr = Object.assign(new PassThrough(), options.tty === true ? { isTTY: true, columns: 100 } : {})
  stderr.on('data', (chunk: Buffer) => err.push(chunk.toString()))
  const io: CliIo = { stdout, stderr, ...(options.signal === undefined ? {} : { signal: options.signal }) }
  return { io, stdout: () => out.join(''), stderr: () => err.join('') }
}

t.test('--help and help print the overview, a command its own help, and exit 0', async (t) => {
  const overviews = []
  for (const argv of [['--help'], ['-h'], ['help']]) {
    const run = capture()
    t.equal(await runCli(argv, run.io), 0)
    overviews.push(run.stdout())
  }
  t.equal(new Set(overviews).size, 1, 'the same overview each way')
  t.match(overviews[0], /^Usage: weft-devnet <command> \[options\]\n/)
  for (const command of ['fill', 'live', 'reorg']) t.match(overviews[0], new RegExp(`\\n  ${command} `), `the overview lists ${command}`)
  for (const command of ['fill', 'live', 'reorg']) {
    const run = capture()
    t.equal(await runCli([command, '--help'], run.io), 0)
    t.match(run.stdout(), new RegExp(`^Usage: weft-devnet ${command} --data DIR`), `${command} --help`)
  }
  const fill = capture()
  await runCli(['fill', '-h'], fill.io)
  t.match(fill.stdout(), /weft-devnet fill --data \.\/data --network development --blocks 20000/, 'with an example')
})

t.test('--version prints the package version and exits 0', async (t) => {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
  const run = capture()
  t.equal(await runCli(['--version'], run.io), 0)
  t.equal(run.stdout(), `${version}\n`)
})

t.test('fill stores the blocks and prints one summary line, with no bar when stderr is not a terminal', async (t) => {
  const data = join(t.testdir(), 'data')
  const run = capture()
  t.equal(
    await runCli(['fill', '--data', data, '--network', 'development', '--blocks', '300', '--seed', 'cli', '--fork-rate', '0.1'], run.io),
    0,
  )
  t.match(run.stdout(), /^filled 300 blocks \(\d+ orphans\) on 20 chains of development in [\d.]+ s \(\d+ blocks\/s\); heights \d+-\d+\n$/)
  t.equal(run.stderr(), '')
  const store = await openStore({ path: data, network: 'development' })
  t.teardown(() => store.close())
  const heights = [...store.cut().values()].map((head) => head.height)
  t.ok(
    heights.every((h) => h >= 10),
    `heights ${heights.join(' ')}`,
  )
})

t.test('fill draws a progress bar on stderr when it is a terminal', async (t) => {
  const run = capture({ tty: true })
  t.equal(await runCli(['fill', '--data', join(t.testdir(), 'data'), '--network', 'test-singleton', '--blocks', '200'], run.io), 0)
  t.match(run.stderr(), /filling \|.*\| 100% \| 200\/200 blocks/)
  t.match(run.stdout(), /^filled 200 blocks \(0 orphans\) on 1 chain of test-singleton/)
})

t.test('the same seed through the CLI gives the same chains', async (t) => {
  const dir = t.testdir()
  const heads = async (name: string) => {
    await runCli(['fill', '--data', join(dir, name), '--blocks', '100', '--seed', '9', '--fork-rate', '0.3'], capture().io)
    const store = await openStore({ path: join(dir, name), network: 'development' })
    const hashes = [...store.cut().values()].map((head) => head.hash.toString('base64url'))
    await store.close()
    return hashes
  }
  t.same(await heads('a'), await heads('b'))
})

t.test('usage errors exit 2 and say what was expected, then how the command is used', async (t) => {
  const none = capture()
  t.equal(await runCli([], none.io), 2)
  t.match(none.stderr(), /^Usage: weft-devnet <command>/, 'no command: the overview')
  const unknown = capture()
  t.equal(await runCli(['mine'], unknown.io), 2)
  t.match(unknown.stderr(), /^weft-devnet: unknown command "mine"\n\nUsage: weft-devnet <command>/)
  const cases: Array<[string[], RegExp]> = [
    [['fill', 'more'], /Unexpected argument 'more'/],
    [['fill', '--blocks', '5'], /Expected --data DIR/],
    [['fill', '--data', 'x'], /Expected --blocks N/],
    [['fill', '--data', 'x', '--blocks', 'many'], /Expected --blocks to be a number, received "many"/],
    [['fill', '--data', 'x', '--blocks', ''], /Expected --blocks to be a number, received ""/],
    [['fill', '--data', 'x', '--blocks', '5', '--network', 'moon'], /Expected --network to be one of .*received "moon"/],
    [['fill', '--data', 'x', '--blocks', '5', '--colour'], /Unknown option '--colour'/],
    [['live', '--data', 'x', '--duration', 'soon'], /Expected --duration to be a number/],
    [['reorg', '--data', 'x', '--depth', '3'], /Expected --chain C/],
    [['reorg', '--data', 'x', '--chain', '3'], /Expected --depth N/],
    [['reorg', '--data', 'x', '--chain', 'three', '--depth', '3'], /Expected --chain to be a number, received "three"/],
  ]
  for (const [argv, message] of cases) {
    const run = capture()
    t.equal(await runCli(argv, run.io), 2, argv.join(' '))
    t.match(run.stderr(), message)
    t.match(run.stderr(), new RegExp(`^weft-devnet ${argv[0]}: .*\\n\\nUsage: weft-devnet ${argv[0]} --data DIR`))
    t.equal(run.stdout(), '')
  }
})

t.test('other failures exit 1 and name their code', async (t) => {
  const run = capture()
  t.equal(await runCli(['fill', '--data', join(t.testdir(), 'data'), '--blocks=-3'], run.io), 1)
  t.match(run.stderr(), /^weft-devnet fill: Expected blocks to be a non-negative integer, received -3 \[INVALID_OPTION\]\n$/)
})

t.test('reorg replaces the best branch of the chains named, and says where each forks', async (t) => {
  const data = join(t.testdir(), 'data')
  t.equal(await runCli(['fill', '--data', data, '--network', 'test-singleton', '--blocks', '40'], capture().io), 0)
  const run = capture()
  t.equal(await runCli(['reorg', '--data', data, '--network', 'test-singleton', '--chain', '0', '--depth', '15', '--seed', 'x'], run.io), 0)
  t.match(run.stdout(), /^chain 0: new branch from height 25 to 40, head [A-Za-z0-9_-]{43}\nstored 15 blocks\n$/)
  const deep = capture()
  t.equal(await runCli(['reorg', '--data', data, '--network', 'test-singleton', '--chain', '0', '--depth', '41'], deep.io), 1)
  t.match(deep.stderr(), /Expected depth to be at most 40 on chain 0, received 41 \[INVALID_OPTION\]/)
})

t.test('an error without a code is reported by its message alone', async (t) => {
  const run = capture()
  const stdout = new PassThrough()
  stdout.write = () => {
    throw new Error('stdout is gone')
  }
  t.equal(await runCli(['--help'], { ...run.io, stdout }), 1)
  t.equal(run.stderr(), 'weft-devnet: stdout is gone\n')
  const store = capture()
  t.equal(await runCli(['fill', '--data', '/dev/null/no', '--blocks', '1'], store.io), 1)
  t.match(store.stderr(), /^weft-devnet fill: /)
})

t.test('live produces blocks for --duration seconds, then stops and reports what it stored', async (t) => {
  const data = join(t.testdir(), 'data')
  const run = capture()
  const started = performance.now()
  t.equal(
    await runCli(['live', '--data', data, '--block-delay', '0.05', '--fork-rate', '0.1', '--seed', 'x', '--duration', '0.6'], run.io),
    0,
  )
  t.ok(performance.now() - started >= 600, 'it ran for the duration')
  t.match(run.stderr(), /producing on development, one block per chain every 0.05 s\n/)
  const produced = /^produced (\d+) blocks; heights ((?:\d+ ?){20})\n$/.exec(run.stdout())
  t.ok(produced, run.stdout())
  // How many blocks 0.6 s gives is a matter of the machine's speed; that the report tells the truth is not.
  const store = await openStore({ path: data, network: 'development' })
  t.teardown(() => store.close())
  let stored = 0
  for (const chain of store.heads().keys()) for await (const item of store.range({ chain })) if (item.height > 0) stored++
  t.ok(stored > 0, `${stored} blocks stored`)
  t.equal(Number(produced?.[1]), stored, 'the count it reports is what it stored, orphans included')
  t.equal(produced?.[2], [...store.heads().values()].map((head) => head.height).join(' '), 'the heights it reports are the stored heads')
})

t.test('live stops when its signal aborts, also one aborted before it started producing', async (t) => {
  for (const abortAfter of [300, 0]) {
    const controller = new AbortController()
    const run = capture({ signal: controller.signal })
    if (abortAfter === 0) controller.abort()
    else setTimeout(() => controller.abort(), abortAfter)
    t.equal(await runCli(['live', '--data', join(t.testdir(), 'data'), '--network', 'test-singleton'], run.io), 0)
    t.match(run.stderr(), /every 1 s \(Ctrl-C to stop\)/, "the network's own block delay by default")
    t.match(run.stdout(), /^produced \d+ blocks; heights \d+\n$/)
  }
})

t.test('live refuses a bad block delay without waiting', async (t) => {
  const run = capture()
  t.equal(await runCli(['live', '--data', join(t.testdir(), 'data'), '--block-delay', '0', '--duration', '60'], run.io), 1)
  t.match(run.stderr(), /Expected blockDelay to be a positive number of seconds, received 0 \[INVALID_OPTION\]/)
})

t.test('live exits 1 when producing fails', async (t) => {
  const run = capture()
  t.equal(await runCli(['live', '--data', join(t.testdir(), 'data'), '--network', 'testnet06', '--duration', '5'], run.io), 1)
  t.match(run.stderr(), /^weft-devnet live: Expected the target of chain \d+ to need at most .*\[TARGET_TOO_HARD\]$/m)
})
