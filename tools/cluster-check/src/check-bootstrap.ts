import { chmodSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { chainPaths } from '@weft/api'
import { rawGet } from './cache-http.js'
import type { PageScope } from './check-pages.js'
import { samePages } from './check-pages.js'
import { sessions } from './check-rejoin.js'
import {
  base,
  type Cluster,
  type ClusterNode,
  type ClusterOptions,
  startFromSnapshot,
  startPublisher,
  startSnapshotServer,
  waitReady,
} from './cluster.js'
import { ClusterCheckError } from './errors.js'
import { isUp, waitForServers } from './haproxy.js'
import { getOk } from './http.js'
import { startLoad, tally } from './load.js'
import { cutHeights, type Page } from './pages.js'
import { type Outcome, progress } from './report.js'
import { waitFor } from './wait.js'

/** What the manifest says of one snapshot (apps/server, "Publishing snapshots"). */
interface Published {
  readonly file: string
  readonly height: number
  readonly blocks: number
  readonly bytes: number
}

const newest = async (manifest: string): Promise<Published | undefined> =>
  (JSON.parse(await getOk(manifest)) as { snapshots: Published[] }).snapshots[0]

// The times (epoch ms) of the bootstrap's log lines: download started, import started (download and checksum done), import done.
function bootstrapTimes(log: string): [number, number, number] {
  const times = new Map<string, number>()
  for (const text of readFileSync(log, 'utf8').split('\n')) {
    if (!text.includes('"msg":"bootstrap: ')) continue
    const entry = JSON.parse(text) as { msg: string; time: number }
    const word = entry.msg.split(' ')[1] ?? ''
    // The first line of each: progress lines ("bootstrap: downloading", "bootstrap: importing") follow.
    if (!times.has(word)) times.set(word, entry.time)
  }
  const [download, importing, imported] = ['downloading', 'importing', 'the'].map((word) => times.get(word))
  if (download === undefined || importing === undefined || imported === undefined)
    throw new ClusterCheckError('CLUSTER_BAD_ANSWER', `Expected the bootstrap's three log lines in ${log}, found ${[...times.keys()]}`)
  return [download, importing, imported]
}

/**
 * With the devnet node paused (no new blocks): waits until `/cut` and a near-tip page of chain 0 are
 * the same bytes on every node of `nodes`; resolves with the ms it took. The devnet node goes on after.
 */
async function sameTip(cluster: Cluster, nodes: readonly ClusterNode[], timeout: number): Promise<{ ms: number; path: string }> {
  const start = performance.now()
  const lowest = Math.min(...(await cutHeights(cluster.ingest.url)).values())
  const path = chainPaths.blockPage(base, 0, { minheight: Math.max(0, lowest - 3) })
  process.kill(cluster.devnet.proc.pid, 'SIGSTOP')
  try {
    await waitFor(
      `/cut and ${path} to be the same bytes on ${nodes.map((n) => n.name).join(', ')}`,
      async () => {
        const answers = await Promise.all(nodes.flatMap((n) => [getOk(`${n.url}${chainPaths.cut(base)}`), getOk(`${n.url}${path}`)]))
        return answers.every((answer, i) => answer === answers[i % 2]) ? true : undefined
      },
      timeout,
      250,
    )
  } finally {
    process.kill(cluster.devnet.proc.pid, 'SIGCONT')
  }
  return { ms: Math.round(performance.now() - start), path }
}

/**
 * (i) A node following the ingest node publishes snapshots (`--snapshot-dir`, `--snapshot-every`),
 * nginx serves the folder as plain files, the publisher is stopped, and a new replica starts on an
 * empty folder with `--bootstrap-from <manifest> --upstream <ingest>` at HAProxy's spare slot: it must
 * import the snapshot, become ready, be marked up and take traffic through HAProxy (no request
 * failing), answer the reference pages, and, once caught up, the same `/cut` and near-tip page as the
 * ingest node and every replica.
 */
export async function checkBootstrap(
  options: ClusterOptions,
  cluster: Cluster,
  scope: PageScope,
  reference: Map<number, Page[]>,
  every: number,
): Promise<Outcome> {
  const folder = join(options.dir, 'snapshots')
  // nginx's workers run as nobody when it is started as root: the folder must be theirs to read.
  mkdirSync(folder)
  chmodSync(folder, 0o755)
  const target = [...(await cutHeights(cluster.ingest.url)).values()].reduce((sum, height) => sum + height, 0)
  const publisher = await startPublisher(options, cluster, folder, every)
  const server = await startSnapshotServer(options, folder)
  const manifest = `${server.url}/manifest.json`
  progress(`publisher at ${publisher.url} writing snapshots into ${folder} every ${every} s, nginx serving them at ${server.url}`)
  // The publisher's first snapshot is of its empty store; a later one, once it has caught up, holds the ingest node's cut of now.
  await waitFor(
    `a snapshot of height >= ${target} listed by ${manifest}`,
    async () => ((await newest(manifest))?.height ?? -1) >= target || undefined,
    options.timeout,
    500,
  )
  publisher.proc.child.kill('SIGTERM')
  await publisher.proc.exited
  // The publisher is gone: only nginx serves the snapshot now, as it lists it once the last one written is in.
  const snapshot = (await newest(manifest)) as Published
  const range = await rawGet(`${server.url}/${snapshot.file}`, { headers: { range: 'bytes=0-99' } })
  progress(
    `publisher stopped; ${cluster.spare.name} starting with --bootstrap-from ${manifest} (${snapshot.blocks} blocks, ${snapshot.bytes} bytes)`,
  )
  const start = performance.now()
  const replica = await startFromSnapshot(options, cluster, manifest)
  const listeningMs = Math.round(performance.now() - start)
  const [download, importing, imported] = bootstrapTimes(replica.proc.log)
  progress(`${replica.name} imported the snapshot and listens at ${replica.url}; waiting for it to catch up`)
  await waitReady(replica, options.timeout)
  const readyMs = Math.round(performance.now() - start)
  await waitForServers(cluster.stats, [replica.name], isUp, `HAProxy to mark ${replica.name} up`, options.timeout)
  const upMs = Math.round(performance.now() - start)
  const before = await sessions(cluster, replica.name)
  const load = startLoad(cluster.lb, [...reference.values()].flat(), 2, 30_000)
  let reached: number
  try {
    reached = await waitFor(
      `traffic through HAProxy to reach ${replica.name}`,
      async () => {
        const now = await sessions(cluster, replica.name)
        return now > before ? now - before : undefined
      },
      options.timeout,
      200,
    )
  } finally {
    await load.stop()
  }
  const traffic = tally(load.samples)
  const pages = await samePages(replica.url, reference, scope, options.timeout)
  const tip = await sameTip(cluster, [cluster.ingest, ...cluster.replicas, replica], options.timeout)
  const figures = {
    snapshot,
    rangeStatus: range.status,
    downloadAndChecksumMs: importing - download,
    importMs: imported - importing,
    startToListeningMs: listeningMs,
    startToReadyMs: readyMs,
    startToUpMs: upMs,
    requests: traffic.requests,
    failures: traffic.failures,
    sessionsReachingIt: reached,
    pages: pages.pages,
    sameCutMs: tip.ms,
  }
  const problems = [
    ...(range.status === 206 && range.body.length === 100 ? [] : [`a Range request to nginx answered ${range.status}, not 206`]),
    ...(traffic.failures > 0 ? [`${traffic.failures} of ${traffic.requests} requests failed: ${traffic.examples.join(' | ')}`] : []),
    ...(pages.differs === undefined ? [] : [`its pages differ from the ingest node's: ${pages.differs}`]),
  ]
  const detail =
    `the publisher's snapshot ${snapshot.file} (${snapshot.blocks} blocks, ${(snapshot.bytes / 1024).toFixed(1)} KiB, height ${snapshot.height}) ` +
    `served by nginx alone (Range: ${range.status}); ${replica.name} --bootstrap-from on an empty folder: downloaded and checked in ` +
    `${figures.downloadAndChecksumMs} ms, imported in ${figures.importMs} ms, listening after ${listeningMs} ms, ready after ${readyMs} ms, ` +
    `up in HAProxy after ${upMs} ms, ${reached} sessions reached it among ${traffic.requests} requests, ${traffic.failures} failed; ` +
    `its ${pages.pages} pages equal the ingest node's; /cut and ${tip.path} the same bytes as the ingest node's and ${cluster.replicas.length} replicas' ` +
    `after ${tip.ms} ms (devnet paused)` +
    (problems.length > 0 ? `; ${problems.join('; ')}` : '')
  return { pass: problems.length === 0, detail, figures }
}
