import { closeSync, openSync, readdirSync, readSync, statSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { until } from '@weft/test-kit'
import { ClassicLevel } from 'classic-level'
import t from 'tap'
import { runCli } from '../src/index.js'
import { captureIo } from './fixtures/cli.js'
import { chainBlocks, filledFolder, startNode } from './fixtures/node.js'
import { caughtUp, getText, startFollower } from './fixtures/upstreams.js'

// Flips 64 bytes at a fifth, two fifths and three fifths of the largest table file of the closed store in `path`, once its data is compacted into tables.
async function damageTable(path: string): Promise<void> {
  const db = new ClassicLevel<Buffer, Buffer>(path, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  await db.open()
  await db.compactRange(Buffer.of(0), Buffer.alloc(8, 0xff))
  await db.close()
  const [table] = readdirSync(path)
    .filter((name) => name.endsWith('.ldb'))
    .map((name) => join(path, name))
    .sort((a, b) => statSync(b).size - statSync(a).size)
  const fd = openSync(table!, 'r+')
  for (const fraction of [0.2, 0.4, 0.6]) {
    const at = Math.floor(statSync(table!).size * fraction)
    const bytes = Buffer.alloc(64)
    readSync(fd, bytes, 0, 64, at)
    writeSync(
      fd,
      bytes.map((byte) => byte ^ 0xff),
      0,
      64,
      at,
    )
  }
  closeSync(fd)
}

t.test(
  'a damaged table answers 503 STORE_DAMAGED, the repair reports the loss, and a node with an upstream fetches it again',
  async (t) => {
    const upstream = await startNode(t, { data: await filledFolder(t, 'development', 400, 0.1), network: 'development' })
    const first = await startFollower(t, [upstream.url], { network: 'development', logLevel: 'info' })
    await until(() => caughtUp(upstream, first.server), 'the follower caught up with its upstream')
    const data = first.server.config.data
    await first.server.close()
    await damageTable(data)

    const damaged = await startFollower(t, [], { data, network: 'development', upstream: [], devnet: false })
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, chain) => getText(`${damaged.server.url}/chain/0.0/development/chain/${chain}/header?limit=1000`)),
    )
    const refused = answers.filter((answer) => answer.status === 503)
    t.ok(refused.length > 0, `reads over the damage answer 503 (${refused.length} chains)`)
    t.ok(
      answers.every((answer) => answer.status === 200 || answer.status === 503),
      'no 500, and the other chains are served',
    )
    t.match(JSON.parse(refused[0]!.text), {
      status: 503,
      code: 'STORE_DAMAGED',
      detail: /LevelDB found one damaged .*weft-server --repair/,
    })
    const ready = await getText(`${damaged.server.url}/ready`)
    t.equal(ready.status, 503)
    t.match(JSON.parse(ready.text), { ready: false, damaged: { detail: /^Corruption: / } })
    t.equal(damaged.log.lines.filter((line) => line.code === 'STORE_DAMAGED').length, 1, 'logged once')
    t.match((await getText(`${damaged.server.url}/metrics`)).text, /^weft_store_damaged 1$/m)
    await damaged.server.close()

    const repair = captureIo()
    await runCli(['--repair', '--data', data, '--network', 'development'], {}, repair.io)
    t.equal(await repair.exited, 0)
    const summary = repair.lines().find((line) => String(line.msg).startsWith('store repaired'))
    t.match(summary, { damagedTables: 1, index: 'rebuilding' })
    t.ok((summary!.droppedBlocks as number) > 0, 'the report counts the blocks dropped')

    const healed = await startFollower(t, [upstream.url], { data, network: 'development' })
    await until(() => caughtUp(upstream, healed.server), 'the repaired follower caught up again')
    for (let chain = 0; chain < 20; chain++)
      t.same(await chainBlocks(healed.server, chain), await chainBlocks(upstream, chain), `chain ${chain}: every block is back`)
  },
)

t.test('the repair is refused while a node holds the store', async (t) => {
  const node = await startNode(t, { data: t.testdir(), network: 'development' })
  const repair = captureIo()
  await runCli(['--repair', '--data', node.config.data, '--network', 'development'], {}, repair.io)
  t.equal(await repair.exited, 1)
  t.match(repair.lines().at(-1), { code: 'STORE_LOCKED', msg: /another process/ })
})
