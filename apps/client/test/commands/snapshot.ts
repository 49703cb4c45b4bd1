import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { openStore } from '@weft/store'
import t from 'tap'
import { weft, weftInProcess } from '../fixtures/cli.js'
import { eventually, filledNode, freshFolder, rawPages } from '../fixtures/nodes.js'

const base = '/chain/0.0/development'

t.test('a snapshot exported from a serving node imports as a store of the same blocks, its cut adopted', async (t) => {
  const { server } = await filledNode(t, { blocks: 400, adminPort: 0, devnet: true, blockDelay: 0.05 })
  t.ok(server.adminUrl, 'the admin listener is on')
  t.ok(await eventually(() => (server.store.cut().get(0)?.height ?? 0) > 25), 'the producer is writing')
  const out = join(freshFolder(t), 'node.snapshot.gz')
  const exported = await weftInProcess(['snapshot', 'export', '--from', server.adminUrl!, '--out', out])
  t.equal(exported.code, 0, exported.stderr)
  const done = exported.lines[0] as { event: string; blocks: number; bytes: number }
  t.match(done, { event: 'exported', file: out })
  t.ok(done.blocks >= 400 && done.bytes === readFileSync(out).length)
  t.notOk(existsSync(`${out}.partial`))
  const data = join(freshFolder(t), 'imported')
  const imported = await weft(['snapshot', 'import', '--in', out, '--data', data, '--network', 'development'])
  t.equal(imported.code, 0, imported.stderr)
  t.match(imported.lines[0], { event: 'imported', network: 'development', blocks: done.blocks })
  // The copy holds the blocks of the moment the snapshot was taken; the node kept producing since.
  await server.close()
  const copy = await openStore({ path: data, network: 'development', cutPolicy: 'adopted' })
  t.teardown(() => copy.close())
  const original = await openStore({ path: server.config.data, network: 'development' })
  t.teardown(() => original.close())
  for (const [chain, head] of copy.cut()) {
    t.ok(await original.getHeader(head.hash), `chain ${chain}'s head is a block of the node`)
    const items: string[] = []
    for await (const item of copy.range({ chain, maxheight: head.height })) items.push(item.hash.toString('hex'))
    const theirs: string[] = []
    for await (const item of original.range({ chain, maxheight: head.height })) theirs.push(item.hash.toString('hex'))
    t.ok(
      items.every((hash) => theirs.includes(hash)),
      `chain ${chain}: every copied block is the node's`,
    )
  }
})

t.test('a snapshot exports from the folder of a store no process holds, and a damaged one is refused', async (t) => {
  const { server, data } = await filledNode(t, { blocks: 200 })
  const pages = await rawPages(server.url, base, 3)
  await server.close()
  const out = join(freshFolder(t), 'folder.snapshot.gz')
  const exported = await weftInProcess(['snapshot', 'export', '--data', data, '--network', 'development', '--out', out])
  t.equal(exported.code, 0, exported.stderr)
  const target = join(freshFolder(t), 'copy')
  t.equal((await weftInProcess(['snapshot', 'import', '--in', out, '--data', target])).code, 0)
  const copy = await filledNode(t, { data: target })
  t.same(await rawPages(copy.server.url, base, 3), pages, 'pages of the copy equal the original, byte for byte')
  const cut = readFileSync(out).subarray(0, readFileSync(out).length - 100)
  const damaged = join(freshFolder(t), 'cut.snapshot.gz')
  writeFileSync(damaged, cut)
  const refused = join(freshFolder(t), 'refused')
  const run = await weftInProcess(['snapshot', 'import', '--in', damaged, '--data', refused])
  t.equal(run.code, 1)
  t.match(run.stderr, /weft snapshot: Expected a whole Weft snapshot file, but .* \[INVALID_SNAPSHOT\]/)
  t.notOk(existsSync(refused), 'no store is left')
  t.same(
    readdirSync(join(refused, '..')).filter((name) => name.includes('importing')),
    [],
  )
})

t.test('snapshot usage errors exit 2', async (t) => {
  const cases: Array<[string[], RegExp]> = [
    [['snapshot'], /Expected the action export or import, received none/],
    [['snapshot', 'copy'], /received "copy"/],
    [['snapshot', 'export', 'more'], /received also "more"/],
    [['snapshot', 'export'], /--out is required/],
    [['snapshot', 'export', '--out', 'f', '--from', 'http://127.0.0.1:9', '--data', 'd'], /give --from or --data, not both/],
    [['snapshot', 'export', '--out', 'f', '--data', 'd'], /--network is required with --data/],
    [['snapshot', 'export', '--out', 'f'], /--data is required/],
    [['snapshot', 'import', '--data', 'd'], /--in is required/],
    [['snapshot', 'import', '--in', 'f'], /--data is required/],
  ]
  for (const [args, message] of cases) {
    const run = await weftInProcess(args)
    t.equal(run.code, 2, args.join(' '))
    t.match(run.stderr, message)
  }
  const refused = await weftInProcess(['snapshot', 'export', '--out', join(freshFolder(t), 'x'), '--from', 'http://127.0.0.1:1/'])
  t.equal(refused.code, 1, 'nothing listening: a failure, not a usage error')
})
