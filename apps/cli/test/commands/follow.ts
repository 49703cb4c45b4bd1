import { spawn } from 'node:child_process'
import { type AddressInfo, connect, createServer, type Socket } from 'node:net'
import { createInterface } from 'node:readline'
import { powHashHex } from '@weft/block'
import { fill } from '@weft/devnet'
import { encodeHash } from '@weft/hash-text'
import { eventually, freshFolder } from '@weft/test-kit'
import type { Test } from 'tap'
import t from 'tap'
import { cli, weft } from '../fixtures/cli.js'
import { filledNode, serveData } from '../fixtures/nodes.js'

t.test('weft follow against a node', async (t) => {
  const { server } = await filledNode(t, { blocks: 200 })
  const url = server.url

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
    t.equal((await weft(['follow', '--url', url, '--count', '0'])).stdout, '', '--count 0 prints nothing')
  })

  t.test('follow refuses a chain the node does not have instead of waiting forever', async (t) => {
    for (const args of [
      ['--chain', '99'],
      ['--depth', '2', '--chain', '3', '--chain', '20'],
    ]) {
      const run = await weft(['follow', '--url', url, ...args])
      t.equal(run.code, 2, args.join(' '))
      t.match(run.stderr, /--chain must be one of the node's chains \(0, 1, .*19\), got (99|20)/)
      t.equal(run.stdout, '')
    }
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
})

// A TCP pass-through to `target` that can be shut (every connection cut, new ones refused) and opened again.
async function gate(t: Test, target: string): Promise<{ url: string; shut(): void; open(): void }> {
  const { hostname, port } = new URL(target)
  const sockets = new Set<Socket>()
  let shut = false
  const proxy = createServer((client) => {
    if (shut) return void client.destroy()
    const server = connect(Number(port), hostname)
    for (const [from, to] of [
      [client, server],
      [server, client],
    ] as const) {
      sockets.add(from)
      from.pipe(to)
      from.on('error', () => to.destroy())
      from.on('close', () => {
        sockets.delete(from)
        to.destroy()
      })
    }
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    for (const socket of sockets) socket.destroy()
    return new Promise((resolve) => proxy.close(resolve))
  })
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    shut() {
      shut = true
      for (const socket of sockets) socket.destroy()
    },
    open() {
      shut = false
    },
  }
}

t.test('follow resumes across reconnections, and reads the blocks of a gap longer than the node keeps with branch queries', async (t) => {
  const live = await serveData(t, { data: freshFolder(t), streamRetention: 5 })
  await fill(live.store, { blocks: 40, seed: 'before' })
  const inserted: string[] = []
  live.store.subscribe((event) => {
    if (event.type === 'inserted') inserted.push(encodeHash(event.header.hash))
  })
  const door = await gate(t, live.url)
  const child = spawn(process.execPath, [cli, 'follow', '--url', door.url, '--count', '45'], { stdio: ['ignore', 'pipe', 'inherit'] })
  t.teardown(() => void child.kill('SIGKILL'))
  const lines: Array<{ header: { hash: string }; powHash: string }> = []
  const reading = (async () => {
    for await (const line of createInterface({ input: child.stdout })) lines.push(JSON.parse(line))
  })()
  t.ok(await eventually(() => live.eventClients().header === 1), 'the CLI connected to the stream')
  await fill(live.store, { blocks: 10, seed: 'first' })
  t.ok(await eventually(() => lines.length === 10), 'the first updates printed')
  // Within the window: the node resumes after the last event printed.
  door.shut()
  await fill(live.store, { blocks: 3, seed: 'short gap' })
  door.open()
  t.ok(await eventually(() => lines.length === 13), 'a short gap is resumed')
  // Past it (5 events kept): the CLI is told so and reads what it missed.
  door.shut()
  await fill(live.store, { blocks: 32, seed: 'long gap' })
  door.open()
  await reading
  t.equal(lines.length, 45)
  t.same(
    lines.map((line) => line.header.hash).sort(),
    [...inserted].sort(),
    'every block inserted since the CLI connected, once (no fork: each is on the winning branch)',
  )
  const stored = await live.store.getHeader(Buffer.from(lines.at(-1)!.header.hash, 'base64url'))
  t.equal(lines.at(-1)!.powHash, stored === undefined ? '' : powHashHex(stored), 'lines read from pages have the same fields as events')
})
