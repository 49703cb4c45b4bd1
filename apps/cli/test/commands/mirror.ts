import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { PassThrough } from 'node:stream'
import { freshFolder } from '@weft/test-kit'
import t from 'tap'
import { runCli } from '../../src/run-cli.js'
import { cli } from '../fixtures/cli.js'
import { assertSamePages, type MirrorLine } from '../fixtures/mirrored.js'
import { filledNode, serveData } from '../fixtures/nodes.js'

t.test('weft mirror against a node', async (t) => {
  const { server } = await filledNode(t, { blocks: 200 })
  const url = server.url

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

t.test('weft mirror killed half way with SIGKILL and run again ends byte-identical', async (t) => {
  const { server: upstream } = await filledNode(t, { blocks: 300, forkRate: 0.25, seed: 'kill' })
  const data = freshFolder(t)
  const args = [cli, 'mirror', '--from', upstream.url, '--data', data, '--once', '--page-size', '4']
  const first = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  t.teardown(() => void first.kill('SIGKILL'))
  let pages = 0
  let killedAt = 0
  for await (const line of createInterface({ input: first.stdout })) {
    const event = JSON.parse(line) as MirrorLine
    if (event.event === 'page') pages += 1
    if (pages === 40) {
      first.kill('SIGKILL')
      break
    }
  }
  const [, signal] = (await new Promise((resolve) => first.on('exit', (...exit) => resolve(exit)))) as [number | null, string | null]
  t.equal(signal, 'SIGKILL', 'the first run was killed')
  killedAt = pages
  const second = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  t.teardown(() => void second.kill('SIGKILL'))
  const lines: string[] = []
  for await (const line of createInterface({ input: second.stdout })) lines.push(line)
  const code = await new Promise((resolve) => second.on('exit', resolve))
  t.equal(code, 0, 'the second run finished')
  const synced = lines.map((line) => JSON.parse(line) as MirrorLine).find((e) => e.event === 'synced')
  t.ok(
    synced && synced.event === 'synced' && synced.inserted > 0 && synced.inserted < 300,
    `the second run inserted only what was missing (${JSON.stringify(synced)}), after ${killedAt} pages`,
  )
  const local = await serveData(t, { data })
  await assertSamePages(t, upstream, local, '/chain/0.0/development')
})
