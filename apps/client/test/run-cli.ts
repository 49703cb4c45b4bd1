import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { PassThrough } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { fill } from '@weft/devnet'
import { encodeHash } from '@weft/hash-text'
import t, { type Test } from 'tap'
import { type CliIo, runCli } from '../src/index.js'
import { eventually, filledNode, freshFolder, serveData, winningBranch } from './fixtures/nodes.js'

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const commandNames = ['info', 'health', 'blocks', 'branch', 'follow', 'mirror']

interface Run {
  code: number | null
  stdout: string
  stderr: string
  lines: unknown[]
}

// Runs `node dist/cli.js ...` as a user would, and collects what it printed.
function weft(args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr, lines: jsonLines(stdout) }))
  })
}

// Runs the CLI in this process, with buffers for stdout and stderr.
async function weftInProcess(args: readonly string[], extra: Partial<CliIo> = {}): Promise<Run> {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  let err = ''
  stdout.on('data', (chunk: Buffer) => (out += chunk))
  stderr.on('data', (chunk: Buffer) => (err += chunk))
  const code = await runCli(args, { stdout, stderr, ...extra })
  return { code, stdout: out, stderr: err, lines: jsonLines(out) }
}

// Help text is not NDJSON: only commands that print JSON get their lines parsed.
function jsonLines(text: string): unknown[] {
  return text.startsWith('{')
    ? text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as unknown)
    : []
}

t.test('the weft command run as a user would', async (t) => {
  const { server } = await filledNode(t, { blocks: 200 })
  const url = server.url

  t.test('--help prints the usage of every command and exits 0', async (t) => {
    const main = await weft(['--help'])
    t.equal(main.code, 0)
    for (const name of commandNames) t.match(main.stdout, new RegExp(`^  ${name} `, 'm'), `the overview lists ${name}`)
    const runs = await Promise.all(commandNames.map((name) => weftInProcess([name, '-h'])))
    runs.forEach((run, i) => {
      t.equal(run.code, 0, `${commandNames[i]} --help exits 0`)
      t.match(run.stdout, new RegExp(`^Usage: weft ${commandNames[i]}`), `${commandNames[i]} --help shows its usage`)
    })
  })

  t.test('info and health print one JSON line each', async (t) => {
    const [info, health] = await Promise.all([weft(['info', '--url', url, '--validate']), weft(['health'], { WEFT_URL: url })])
    t.equal(info.code, 0)
    t.equal(info.lines.length, 1)
    t.match(info.lines[0], { nodeVersion: 'development', nodeNumberOfChains: 20, nodeApiVersion: '0.0' })
    t.equal(health.code, 0, 'WEFT_URL is used when --url is absent')
    t.same(health.lines, [{ healthy: true, message: 'Health check OK.' }])
  })

  t.test('blocks prints the blocks of a chain ascending, and --limit stops early', async (t) => {
    const stored: string[] = []
    for await (const item of server.store.range({ chain: 3 })) stored.push(encodeHash(item.hash))
    const [all, five, paged] = await Promise.all([
      weft(['blocks', '--url', url, '--chain', '3']),
      weftInProcess(['blocks', '--url', url, '-c', '3', '-n', '5']),
      weftInProcess([
        'blocks',
        '--url',
        url,
        '--chain',
        '3',
        '--page-size',
        '2',
        '--minheight',
        '2',
        '--maxheight',
        '4',
        '--profile',
        'spec',
        '--network',
        'development',
      ]),
    ])
    t.equal(all.code, 0)
    t.same(
      all.lines.map((b) => (b as { header: { hash: string } }).header.hash),
      stored,
    )
    t.same(
      five.lines.map((b) => (b as { header: { hash: string } }).header.hash),
      stored.slice(0, 5),
    )
    const heights = paged.lines.map((b) => (b as { header: { height: number } }).header.height)
    t.ok(heights.length >= 3 && heights.every((h) => h >= 2 && h <= 4), 'height bounds and small pages work together')
  })

  t.test('branch prints the winning branch between the bounds, descending', async (t) => {
    const winning = await winningBranch(server, 6)
    const run = await weft([
      'branch',
      '--url',
      url,
      '--chain',
      '6',
      '--upper',
      encodeHash(winning.at(-1)!.hash),
      '--lower',
      encodeHash(winning[2]!.hash),
      '--page-size',
      '3',
    ])
    t.equal(run.code, 0)
    t.same(
      run.lines.map((b) => (b as { header: { hash: string } }).header.hash),
      winning
        .slice(3)
        .reverse()
        .map((h) => encodeHash(h.hash)),
    )
    const two = await weftInProcess(['branch', '--url', url, '--chain', '6', '--upper', encodeHash(winning.at(-1)!.hash), '--limit', '2'])
    t.equal(two.lines.length, 2)
    t.equal(
      (await weftInProcess(['branch', '--url', url, '--chain', '6', '--upper', encodeHash(winning.at(-1)!.hash), '--limit', '0'])).stdout,
      '',
    )
    t.equal((await weftInProcess(['blocks', '--url', url, '--chain', '6', '--limit', '0'])).stdout, '')
  })

  t.test('follow --depth prints confirmed headers; follow prints header updates as they come', async (t) => {
    const heads = await weft(['follow', '--url', url, '--depth', '0', '--count', '20'])
    t.equal(heads.code, 0)
    t.same(
      heads.lines.map((h) => (h as { hash: string }).hash).sort(),
      [...server.store.cut().values()].map((h) => encodeHash(h.hash)).sort(),
      'the heads of all 20 chains',
    )

    const live = await serveData(t, { data: freshFolder(t) })
    const child = spawn(process.execPath, [cli, 'follow', '--url', live.url, '--chain', '2', '--count', '3'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    t.teardown(() => void child.kill('SIGKILL'))
    const lines: unknown[] = []
    const reading = (async () => {
      for await (const line of createInterface({ input: child.stdout })) lines.push(JSON.parse(line))
    })()
    // The stream has no initial event: once the CLI is connected, insert until three updates of chain 2 came through.
    t.ok(await eventually(() => live.eventClients().header === 1), 'the CLI connected to the stream')
    for (let round = 0; child.exitCode === null && lines.length < 3 && round < 40; round++)
      await fill(live.store, { blocks: 20, seed: `round ${round}` })
    await reading
    t.equal(lines.length, 3)
    for (const line of lines)
      t.match(line, { header: { chainId: 2 }, powHash: /^[0-9a-f]{64}$/, target: /^[0-9a-f]{64}$/, txCount: Number })
  })

  t.test('a reader that closes the pipe early ends the command quietly', async (t) => {
    const child = spawn(process.execPath, [cli, 'blocks', '--url', url, '--chain', '1', '--page-size', '1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    t.teardown(() => void child.kill('SIGKILL'))
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
    // Like `weft blocks ... | head -1`: read one chunk, then close the pipe.
    await new Promise((resolve) => child.stdout.once('data', resolve))
    child.stdout.destroy()
    const code = await new Promise((resolve) => child.on('exit', resolve))
    t.equal(code, 0)
    t.equal(stderr, '')
  })

  t.test('weft mirror follows until SIGINT, then closes its store and exits 0', async (t) => {
    const data = freshFolder(t)
    const child = spawn(process.execPath, [cli, 'mirror', '--from', url, '--data', data], { stdio: ['ignore', 'pipe', 'pipe'] })
    t.teardown(() => void child.kill('SIGKILL'))
    for await (const line of createInterface({ input: child.stdout })) {
      if ((JSON.parse(line) as { event: string }).event === 'synced') break
    }
    child.kill('SIGINT')
    const code = await new Promise((resolve) => child.on('exit', resolve))
    t.equal(code, 0)
    const local = await serveData(t, { data })
    t.same(local.store.cut().get(0)?.hash, server.store.cut().get(0)?.hash, 'the copy is in the store, which opens again')
  })

  t.test('follow stops cleanly on SIGINT', async (t) => {
    const child = spawn(process.execPath, [cli, 'follow', '--url', url, '--depth', '1'], { stdio: ['ignore', 'pipe', 'pipe'] })
    t.teardown(() => void child.kill('SIGKILL'))
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk))
    t.ok(await eventually(() => output.split('\n').length > 20), 'printed the confirmed heads')
    child.kill('SIGINT')
    const code = await new Promise((resolve) => child.on('exit', resolve))
    t.equal(code, 0)
  })

  t.test('failures print a message with the code on stderr and exit 1', async (t) => {
    const unknown = encodeHash(Buffer.alloc(32, 1))
    const notFound = await weftInProcess(['blocks', '--url', url, '--chain', '0', '--next', `inclusive:${unknown}`])
    t.equal(notFound.code, 1)
    t.equal(notFound.stdout, '')
    t.match(notFound.stderr, /^weft blocks: .*\[CURSOR_NOT_FOUND 404\]\n$/)
    const stopped = await serveData(t, { data: freshFolder(t) })
    await stopped.close()
    const unreachable = await weftInProcess(['info', '--url', stopped.url])
    t.equal(unreachable.code, 1)
    t.match(unreachable.stderr, /\[NETWORK_ERROR\]/)
    const mismatch = await weftInProcess(['mirror', '--from', url, '--data', await singletonFolder(t), '--once'])
    t.equal(mismatch.code, 1)
    t.match(mismatch.stderr, /\[NETWORK_MISMATCH\]/)
    const reorg = await weftInProcess(['follow', '--url', url, '--depth', '0', '--chain', '0', '--count', '1'], {
      signal: AbortSignal.timeout(20_000),
    })
    t.equal(reorg.code, 0)
  })

  t.test('bad usage prints the reason and the usage on stderr and exits 2', async (t) => {
    const cases: Array<[string[], RegExp]> = [
      [[], /^Usage: weft <command>/],
      [['frobnicate'], /unknown command "frobnicate"/],
      [['blocks'], /--chain is required/],
      [['blocks', '--chain', 'x'], /--chain must be an integer >= 0/],
      [['blocks', '--chain', '1', '--page-size', '0'], /--page-size must be an integer >= 1/],
      [['blocks', '--chain', '1', '--bogus'], /Unknown option '--bogus'/],
      [['branch', '--chain', '1'], /--upper is required/],
      [['info', '--network', 'moon'], /--network must be/],
      [['info', '--profile', 'x'], /--profile must be spec or chainweb/],
      [['mirror', '--data', 'd'], /--from is required/],
      [['mirror', '--from', 'http://127.0.0.1:9'], /--data is required/],
      [['follow', '--depth=-1'], /--depth must be an integer/],
    ]
    for (const [args, message] of cases) {
      const run = await weftInProcess(args)
      t.equal(run.code, 2, `${args.join(' ') || '(no arguments)'} exits 2`)
      t.match(run.stderr, message)
      t.equal(run.stdout, '')
    }
    t.equal((await weftInProcess(['help'])).code, 0)
  })

  t.test('mirror prints its page and synced events and draws progress only on a terminal', async (t) => {
    const data = freshFolder(t)
    const stderr = Object.assign(new PassThrough(), {
      isTTY: true,
      columns: 80,
      cursorTo: () => true,
      clearLine: () => true,
      moveCursor: () => true,
    })
    let drawn = ''
    stderr.on('data', (chunk: Buffer) => (drawn += chunk))
    const stdout = new PassThrough()
    let out = ''
    stdout.on('data', (chunk: Buffer) => (out += chunk))
    const code = await runCli(
      [
        'mirror',
        '--from',
        url,
        '--data',
        data,
        '--once',
        '--page-size',
        '100',
        '--resume-margin',
        '2',
        '--validate',
        '--network',
        'development',
      ],
      { stdout, stderr },
    )
    t.equal(code, 0)
    const events = out
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { event: string })
    t.equal(events.at(-1)?.event, 'synced')
    t.ok(events.some((e) => e.event === 'page'))
    t.match(drawn, /mirror \[/, 'a progress bar was drawn on the terminal')
  })
})

async function singletonFolder(t: Test): Promise<string> {
  const { openStore } = await import('@weft/store')
  const data = freshFolder(t)
  await (await openStore({ path: data, network: 'test-singleton' })).close()
  return data
}
