import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fill } from '@weft/devnet'
import { encodeHash } from '@weft/hash-text'
import t from 'tap'
import { cli, weft } from '../fixtures/cli.js'
import { eventually, filledNode, freshFolder, serveData } from '../fixtures/nodes.js'

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
