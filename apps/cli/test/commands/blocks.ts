import { spawn } from 'node:child_process'
import { encodeHash } from '@weft/hash-text'
import t from 'tap'
import { cli, weft, weftInProcess } from '../fixtures/cli.js'
import { filledNode } from '../fixtures/nodes.js'

t.test('weft blocks against a node', async (t) => {
  const { server } = await filledNode(t, { blocks: 200 })
  const url = server.url

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
    t.equal((await weftInProcess(['blocks', '--url', url, '--chain', '6', '--limit', '0'])).stdout, '')
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
})
