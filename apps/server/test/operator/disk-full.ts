import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { openStore } from '@weft/store'
import { eventually, mountTmpfs, type Tmpfs } from '@weft/test-kit'
import type { Test } from 'tap'
import t from 'tap'
import type { RunningServer } from '../../src/index.js'
import { openNodeStore } from '../../src/operator/data-folder.js'
import type { ReadyBody } from '../../src/routes/ready-route.js'
import { send, startNode } from '../fixtures/node.js'
import { startFollower } from '../fixtures/upstreams.js'

// 40 MiB: the store takes writes again once 16 MiB are free (one memtable), and a filled tmpfs costs only what it holds.
const size = 40 * 1024 * 1024
const base = '/chainweb/0.0/development'

// Every block the node's store writes from now on, by base64url hash.
function acknowledged(server: RunningServer): string[] {
  const hashes: string[] = []
  server.store.subscribe((event) => {
    if (event.type === 'inserted') hashes.push(event.header.hash.toString('base64url'))
  })
  return hashes
}

// Fills the disk, checks the node while it is full (no 5xx on reads, /ready 503 with the reason, the
// metric, the status page), frees it and waits for the node to be ready and writing again.
async function fillAndFree(t: Test, disk: Tmpfs, server: RunningServer, acked: string[], ready: () => boolean): Promise<void> {
  await disk.fill()
  t.ok(await eventually(() => !server.store.writeState().writable, 120_000), 'the store found its disk full')
  const readyAnswer = await send(`${server.url}/ready`)
  t.equal(readyAnswer.status, 503, '/ready answers 503 while the disk is full')
  const body = JSON.parse(readyAnswer.body.toString()) as ReadyBody
  t.match(body, { ready: false, store: { writable: false, reason: 'STORE_FULL', folder: join(disk.path, 'store') } })
  t.match((await send(`${server.url}/metrics`)).body.toString(), /^weft_store_writable 0$/m, 'the metric shows it')
  t.match((await send(`${server.url}/`)).body.toString(), /<dd id="store">full: \d+ bytes free in /, 'the status page shows it')
  const head = server.store.cut().get(0)!
  const reads = [
    `${base}/cut`,
    `${base}/chain/0/header?limit=5`,
    `${base}/chain/0/block?limit=5`,
    `${base}/chain/0/hash?limit=5`,
    `${base}/chain/0/header/${head.hash.toString('base64url')}`,
    '/status',
    '/info',
  ]
  for (const path of reads) t.ok((await send(`${server.url}${path}`)).status < 500, `GET ${path} answers while full`)
  const whenFull = acked.length
  await disk.free()
  t.ok(await eventually(() => server.store.writeState().writable && ready(), 120_000), 'ready and writable again once space is freed')
  t.equal((await send(`${server.url}/ready`)).status, 200)
  t.ok(await eventually(() => acked.length > whenFull, 120_000), 'blocks are written again')
}

// Closes the node and opens its store again: every block it acknowledged is there.
async function assertKept(t: Test, server: RunningServer, acked: readonly string[]): Promise<void> {
  await server.close()
  const store = await openStore({ path: server.config.data, network: 'development' })
  t.teardown(() => store.close())
  const refs = await store.getRefs(acked.map((hash) => Buffer.from(hash, 'base64url')))
  t.equal(refs.filter((ref) => ref === undefined).length, 0, `all ${acked.length} acknowledged blocks are stored`)
}

t.test('a devnet node whose disk fills up keeps serving reads, is unready, and mines on once space is freed', async (t) => {
  const disk = mountTmpfs(t, size)
  if (disk === undefined) return
  const server = await startNode(t, { data: join(disk.path, 'store'), network: 'development', devnet: true, blockDelay: 0.5 })
  const acked = acknowledged(server)
  t.ok(await eventually(() => acked.length > 40, 120_000), 'the producer mines')
  await fillAndFree(t, disk, server, acked, () => true)
  await assertKept(t, server, acked)
})

t.test('a following node whose disk fills up keeps serving reads, blames no upstream, and follows on once space is freed', async (t) => {
  const disk = mountTmpfs(t, size)
  if (disk === undefined) return
  const upstream = await startNode(t, { data: t.testdir(), network: 'development', devnet: true, blockDelay: 0.5 })
  const { server, log } = await startFollower(t, [upstream.url], { data: join(disk.path, 'store'), network: 'development' })
  const acked = acknowledged(server)
  t.ok(await eventually(() => server.ingest!.status().ready && acked.length > 40, 120_000), 'the follower follows')
  await fillAndFree(t, disk, server, acked, () => server.ingest!.status().ready)
  t.ok(
    log.lines.some((line) => line.msg === 'the store is full: ingest waits for it to take writes again'),
    'ingest waited for the store',
  )
  t.equal(log.lines.filter((line) => line.code === 'STORE_FULL' && line.level === 50).length, 1, 'the full disk is logged once')
  t.same(
    server
      .ingest!.status()
      .upstreams.map((entry) => entry.state)
      .filter((state) => state === 'demoted'),
    [],
    'the upstream is not demoted for our disk',
  )
  await assertKept(t, server, acked)
})

t.test('a store on a read-only mount is refused with STORE_READ_ONLY and the fix', async (t) => {
  const disk = mountTmpfs(t, 1024 * 1024)
  if (disk === undefined) return
  const path = join(disk.path, 'store')
  await (await openStore({ path, network: 'development' })).close()
  execFileSync('mount', ['-o', 'remount,ro', disk.path])
  await t.rejects(openNodeStore({ path, network: 'development' }), {
    code: 'STORE_READ_ONLY',
    message: /read-only file system.*Fix: mount it read-write/,
  })
})
