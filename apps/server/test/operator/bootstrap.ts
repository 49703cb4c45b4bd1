import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { join } from 'node:path'
import { fill } from '@weft/devnet'
import { openStore } from '@weft/store'
import { freshFolder, until } from '@weft/test-kit'
import { pino } from 'pino'
import t, { type Test } from 'tap'
import { bootstrapStore } from '../../src/operator/bootstrap.js'
import { MANIFEST, type SnapshotManifest, startSnapshotSchedule } from '../../src/operator/snapshot-publisher.js'
import { startServer } from '../../src/server.js'
import { filledFolder, startNode } from '../fixtures/node.js'

const silent = pino({ level: 'silent' })

/** What the static server is asked, and how it may spoil an answer. */
interface StaticFiles {
  readonly url: string
  readonly requests: Array<{ path: string; range: string | undefined }>
  /** Changes the bytes of a file as served (a damaged copy). */
  alter?: ((path: string, bytes: Buffer) => Buffer) | undefined
  /** Bytes of a file after which an answer is cut (the connection destroyed), per request. */
  cutAfter?: ((path: string, request: number) => number | undefined) | undefined
  /** Awaited before such a cut: until the client has taken the bytes sent (a cut also drops what it had not read). */
  beforeCut?: (() => Promise<void>) | undefined
}

// A plain static file server of `dir` with byte ranges (`Range: bytes=N-`), as nginx or an object store answers.
async function serveFiles(t: Test, dir: string): Promise<StaticFiles> {
  const files: Omit<StaticFiles, 'url'> & { url?: string } = { requests: [] }
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://files').pathname).slice(1)
    files.requests.push({ path, range: req.headers.range })
    const file = join(dir, path)
    if (path.includes('/') || !existsSync(file)) {
      res.writeHead(404).end()
      return
    }
    const bytes = files.alter?.(path, readFileSync(file)) ?? readFileSync(file)
    const from = Number(/^bytes=(\d+)-$/.exec(req.headers.range ?? '')?.[1] ?? 0)
    const body = bytes.subarray(from)
    res.writeHead(from > 0 ? 206 : 200, {
      'content-length': body.length,
      ...(from > 0 ? { 'content-range': `bytes ${from}-${bytes.length - 1}/${bytes.length}` } : {}),
    })
    const cut = files.cutAfter?.(path, files.requests.filter((request) => request.path === path).length)
    if (cut === undefined) {
      res.end(body)
      return
    }
    res.write(body.subarray(0, Math.max(0, cut - from)), () => {
      void (files.beforeCut?.() ?? Promise.resolve()).then(() => res.destroy())
    })
  }
  const server = createServer(handle)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const address = server.address()
  files.url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`
  return files as StaticFiles
}

const manifestOf = (dir: string): SnapshotManifest | undefined =>
  existsSync(join(dir, MANIFEST)) ? (JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')) as SnapshotManifest) : undefined

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex')

// A publisher: a node over a filled store writing a snapshot into its folder at start, then every
// `every` seconds, two kept.
async function publisher(t: Test, every = 3600) {
  const snapshots = freshFolder(t)
  const node = await startNode(t, {
    data: await filledFolder(t, 'development', 200, 0.2),
    network: 'development',
    snapshotDir: snapshots,
    snapshotEvery: every,
    snapshotKeep: 2,
  })
  await until(() => (manifestOf(snapshots)?.snapshots.length ?? 0) >= 1, 'the first snapshot in the manifest')
  return { node, snapshots }
}

t.test('a node writes snapshots on a schedule with a manifest, and keeps the newest --snapshot-keep', async (t) => {
  const { node, snapshots } = await publisher(t, 1)
  const first = manifestOf(snapshots)!.snapshots[0]!
  // Two more written after the first: it is gone from the manifest and from the folder.
  await until(() => {
    const listed = manifestOf(snapshots)?.snapshots ?? []
    return listed.length === 2 && listed.every((entry) => entry.file !== first.file)
  }, 'two newer snapshots listed in place of the first')
  const { snapshots: listed } = manifestOf(snapshots)!
  t.same(
    readdirSync(snapshots).sort(),
    [MANIFEST, ...listed.map((entry) => entry.file)].sort(),
    'the listed snapshots and the manifest, no part',
  )
  const newest = listed[0]!
  const bytes = readFileSync(join(snapshots, newest.file))
  t.equal(newest.sha256, sha256(bytes), 'the SHA-256 of the file')
  t.equal(newest.bytes, bytes.length)
  t.equal(newest.network, 'development')
  let blocks = 0
  for (const chain of node.store.cut().keys()) for await (const _ of node.store.range({ chain })) blocks += 1
  t.equal(newest.blocks, blocks, 'every block of the store')
  t.equal(
    newest.height,
    [...node.store.cut().values()].reduce((sum, head) => sum + head.height, 0),
    "the cut's height",
  )
  t.ok(newest.created > listed[1]!.created, 'newest first')
})

t.test('a new node downloads the newest snapshot, resumes a cut-short download, imports it, then follows its upstream', async (t) => {
  const { node, snapshots } = await publisher(t)
  const files = await serveFiles(t, snapshots)
  // The first answer of the snapshot breaks off after 10,000 bytes.
  files.cutAfter = (path, request) => (path.endsWith('.snapshot.gz') && request === 1 ? 10_000 : undefined)
  const data = join(freshFolder(t), 'data')
  // The cut comes once the replica has written the 10,000 bytes (on a busy machine it may not have read them yet).
  files.beforeCut = () =>
    until(() => {
      const downloads = join(data, '.bootstrap')
      return existsSync(downloads) && readdirSync(downloads).some((name) => statSync(join(downloads, name)).size >= 10_000)
    }, 'the replica to write the first 10,000 bytes')
  const replica = await startNode(t, { data, network: 'development', bootstrapFrom: `${files.url}/${MANIFEST}`, upstream: [node.url] })
  const asked = files.requests.filter((request) => request.path.endsWith('.snapshot.gz'))
  t.same(
    asked.map((request) => request.range),
    [undefined, 'bytes=10000-'],
    'the download went on from where it broke off',
  )
  t.notOk(existsSync(join(data, '.bootstrap')), 'the download is deleted once imported')
  await fill(node.store, { blocks: 40, seed: 'after-the-snapshot' })
  const heads = (cut: ReadonlyMap<number, { hash: Buffer }>): string =>
    [...cut].map(([chain, head]) => `${chain}:${head.hash.toString('hex')}`).join()
  await until(() => heads(replica.store.cut()) === heads(node.store.cut()), "the replica on the node's cut")
  t.pass('the replica stands on its upstream’s cut')
  // A folder that holds a store is left as it is.
  await replica.close()
  const before = files.requests.length
  const again = await startNode(t, { data, network: 'development', bootstrapFrom: `${files.url}/${MANIFEST}` })
  t.equal(files.requests.length, before, 'no download for a folder with a store')
  t.ok(again.store.cut().size > 0)
})

t.test('a damaged or cut-short download leaves no store behind and says why', async (t) => {
  const { snapshots } = await publisher(t)
  const files = await serveFiles(t, snapshots)
  files.alter = (path, bytes) => {
    if (!path.endsWith('.snapshot.gz')) return bytes
    const copy = Buffer.from(bytes)
    copy[copy.length >> 1] = (copy[copy.length >> 1] ?? 0) ^ 0xff
    return copy
  }
  const damaged = freshFolder(t)
  await t.rejects(
    startServer({
      data: damaged,
      network: 'development',
      devnet: false,
      logLevel: 'silent',
      port: 0,
      host: '127.0.0.1',
      bootstrapFrom: `${files.url}/${MANIFEST}`,
    }),
    { code: 'BOOTSTRAP_FAILED', reason: 'checksum', message: /SHA-256 its manifest gives/ },
  )
  t.same(readdirSync(damaged), [], 'no store and no download')
  // Every answer breaks off at 10,000 bytes: the attempts that add nothing run out.
  files.alter = undefined
  files.cutAfter = (path) => (path.endsWith('.snapshot.gz') ? 10_000 : undefined)
  const cut = freshFolder(t)
  const url = `${files.url}/${MANIFEST}`
  await t.rejects(bootstrapStore({ url, data: cut, network: 'development', log: silent, attempts: 2, retryDelay: 10 }), {
    code: 'BOOTSTRAP_FAILED',
    reason: 'download',
    message: /2 attempts in a row failed.*a restart resumes the download/,
  })
  t.notOk(existsSync(join(cut, 'CURRENT')), 'no store')
  // A manifest without a snapshot of the node's network.
  await t.rejects(bootstrapStore({ url, data: freshFolder(t), network: 'testnet06', log: silent }), {
    code: 'BOOTSTRAP_FAILED',
    reason: 'manifest',
    message: /list a snapshot of testnet06, found none/,
  })
  await t.rejects(bootstrapStore({ url: `${files.url}/missing.json`, data: freshFolder(t), network: 'development', log: silent }), {
    reason: 'manifest',
    message: /it answered 404/,
  })
})

t.test('a scheduled snapshot waits until the node is ready (a following node publishes once it has caught up)', async (t) => {
  const store = await openStore({ path: freshFolder(t), network: 'development' })
  t.teardown(() => store.close())
  await fill(store, { blocks: 20, seed: 'ready gate' })
  const dir = freshFolder(t)
  let ready = false
  let checks = 0
  const schedule = startSnapshotSchedule({
    store,
    dir,
    everyMs: 10,
    keep: 1,
    log: silent,
    ready: () => {
      checks += 1
      return ready
    },
  })
  t.teardown(() => schedule.stop())
  await until(() => checks >= 5, 'five checks of readiness')
  t.equal(manifestOf(dir), undefined, 'no snapshot while not ready')
  ready = true
  await until(() => (manifestOf(dir)?.snapshots.length ?? 0) === 1, 'a snapshot once ready')
  t.equal(manifestOf(dir)!.snapshots[0]!.blocks, 40, 'then the store, whole')
})
