import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { openStore } from '@weft/store'
import { eventually, freshFolder } from '@weft/test-kit'
import t from 'tap'
import { weft, weftInProcess } from '../fixtures/cli.js'
import { filledNode, rawPages, serveData } from '../fixtures/nodes.js'

const base = '/chain/0.0/development'

t.test('a snapshot exported from a serving node imports as a store of the same blocks, from which a follower continues', async (t) => {
  const { server } = await filledNode(t, { blocks: 400, adminPort: 0, devnet: true, blockDelay: 0.05 })
  t.ok(server.adminUrl, 'the admin listener is on')
  t.ok(await eventually(() => (server.store.cut().get(0)?.height ?? 0) > 25), 'the producer is writing')
  const folder = freshFolder(t)
  const out = join(folder, 'node.snapshot.gz')
  const exported = await weftInProcess(['snapshot', 'export', '--from', server.adminUrl!, '--out', out])
  t.equal(exported.code, 0, exported.stderr)
  const done = exported.lines[0] as { event: string; blocks: number; bytes: number }
  t.match(done, { event: 'exported', file: out })
  t.ok(done.blocks >= 400 && done.bytes === readFileSync(out).length)
  t.match(
    exported.stderr,
    /^weft snapshot: writing .*node\.snapshot\.gz\.partial-[0-9a-f]{8}\nweft snapshot: checking .* \(\d+\.\d MiB\)\n$/,
  )
  t.same(readdirSync(folder), ['node.snapshot.gz'], 'the partial file is gone')
  const data = join(freshFolder(t), 'imported')
  const imported = await weft(['snapshot', 'import', '--in', out, '--data', data, '--network', 'development'])
  t.equal(imported.code, 0, imported.stderr)
  t.match(imported.lines[0], { event: 'imported', network: 'development', blocks: done.blocks })
  t.match(imported.stderr, /^weft snapshot: importing .* into .*imported \(\d+\.\d MiB\)\n$/)
  // The copy holds the blocks of the moment the snapshot was taken: every block the node had at or
  // below each head then (the producer mines above its heads, forks included).
  const copy = await openStore({ path: data, network: 'development', cutPolicy: 'adopted' })
  const cut = new Map(copy.cut())
  for (const [chain, head] of cut) {
    t.ok(await server.store.getHeader(head.hash), `chain ${chain}'s head is a block of the node`)
    const ours: string[] = []
    for await (const item of copy.range({ chain, maxheight: head.height })) ours.push(item.hash.toString('hex'))
    const theirs: string[] = []
    for await (const item of server.store.range({ chain, maxheight: head.height })) theirs.push(item.hash.toString('hex'))
    t.same(ours, theirs, `chain ${chain}: the node's blocks up to the head, orphans included`)
  }
  await copy.close()
  // weft-server --upstream continues from the imported store: it copies what the node made since.
  const follower = await serveData(t, { data, network: 'development', upstream: [server.url] })
  const later = server.store.cut().get(0)!
  t.ok(later.height > cut.get(0)!.height, 'the node went on producing after the snapshot')
  t.ok(await eventually(() => (follower.store.cut().get(0)?.height ?? 0) >= later.height), 'the follower reaches where the node was')
  t.ok(await follower.store.getHeader(later.hash), 'the follower holds a block made after the snapshot')
  // Both stop before their folders go: the producer would write into a folder being removed.
  await follower.close()
  await server.close()
})

t.test('an export or an import stopped by a signal says so and leaves nothing behind', async (t) => {
  const { server, data } = await filledNode(t, { blocks: 100, adminPort: 0 })
  const folder = freshFolder(t)
  const out = join(folder, 'stopped.snapshot.gz')
  const stopped = AbortSignal.abort()
  const fromNode = await weftInProcess(['snapshot', 'export', '--from', server.adminUrl!, '--out', out], { signal: stopped })
  t.equal(fromNode.code, 1)
  t.match(fromNode.stderr, /Stopped by a signal before the end: .*stopped\.snapshot\.gz was not written/)
  t.same(readdirSync(folder), [], 'no file, partial or whole')
  t.equal((await weftInProcess(['snapshot', 'export', '--from', server.adminUrl!, '--out', out])).code, 0)
  await server.close()
  const fromFolder = await weftInProcess(
    ['snapshot', 'export', '--data', data, '--network', 'development', '--out', join(folder, 'again.gz')],
    {
      signal: stopped,
    },
  )
  t.equal(fromFolder.code, 1)
  t.same(readdirSync(folder), ['stopped.snapshot.gz'])
  const target = join(freshFolder(t), 'copy')
  const imported = await weftInProcess(['snapshot', 'import', '--in', out, '--data', target], { signal: stopped })
  t.equal(imported.code, 1)
  t.match(imported.stderr, /Stopped by a signal before the end: nothing was written in .*copy/)
  t.notOk(existsSync(target))
})

t.test('a snapshot exports from the folder of a store no process holds, and a damaged one is refused', async (t) => {
  const { server, data } = await filledNode(t, { blocks: 200 })
  const pages = await rawPages(server.url, base, 3)
  await server.close()
  const out = join(freshFolder(t), 'folder.snapshot.gz')
  const exported = await weftInProcess(['snapshot', 'export', '--data', data, '--network', 'development', '--out', out])
  t.equal(exported.code, 0, exported.stderr)
  const target = join(freshFolder(t), 'copy')
  // On a terminal the progress is a bar.
  const terminal = Object.assign(new PassThrough(), { isTTY: true, columns: 100 })
  let drawn = ''
  terminal.on('data', (chunk: Buffer) => (drawn += chunk))
  t.equal((await weftInProcess(['snapshot', 'import', '--in', out, '--data', target], { stderr: terminal })).code, 0)
  t.match(drawn, /snapshot \[[█░]+\] 100% \| [\d.]+ of [\d.]+ MiB, [\d,]+ blocks written/)
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
    [['snapshot', 'import', '--in', 'no-such-file', '--data', 'd'], /--in no-such-file cannot be read: ENOENT/],
    [['snapshot', 'import', '--in', freshFolder(t), '--data', 'd'], /--in .* is not a file/],
    [['snapshot', 'export', '--out', 'f', '--data', freshFolder(t), '--network', 'development'], /--data .* holds no Weft store/],
  ]
  for (const [args, message] of cases) {
    const run = await weftInProcess(args)
    t.equal(run.code, 2, args.join(' '))
    t.match(run.stderr, message)
  }
  const refused = await weftInProcess(['snapshot', 'export', '--out', join(freshFolder(t), 'x'), '--from', 'http://127.0.0.1:1/'])
  t.equal(refused.code, 1, 'nothing listening: a failure, not a usage error')
})
