// pnpm cluster:check: the scale-out topology of deploy/ on 127.0.0.1 (a devnet node in place of
// chainweb-node, an ingest node, three replicas, HAProxy, nginx as a cache; later a snapshot publisher,
// nginx serving its folder and a replica started from it) and the checks of issues 18 and 35 against it.
// PASS/FAIL lines and a summary JSON on stdout, progress on stderr; exit 1 on any failure.

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { checkBootstrap } from './check-bootstrap.js'
import { checkCacheHits, checkNothingStale, checkThroughput, deepPages } from './check-cache.js'
import { checkFailover } from './check-failover.js'
import { checkCursor, checkPages, type PageScope, referencePages } from './check-pages.js'
import { checkRejoin } from './check-rejoin.js'
import { checkStream } from './check-stream.js'
import { type Cluster, type ClusterNode, type ClusterOptions, startCluster } from './cluster.js'
import { haproxyVersion } from './haproxy.js'
import { nginxVersion } from './nginx.js'
import { type RunOptions, readOptions, usage } from './options.js'
import { cutHeights } from './pages.js'
import { logTail, started, stopAll } from './processes.js'
import { type CheckResult, progress, runCheck } from './report.js'
import { waitFor } from './wait.js'

// Heights below the lowest head left out of the comparisons: forks are mined beside the head, so
// nothing more arrives at or below this distance.
const margin = 2

/** Waits until every chain in scope of `origin`'s cut is at least `height`; resolves with the lowest. */
function cutAtLeast(name: string, origin: string, chains: readonly number[], height: number, timeout: number): Promise<number> {
  return waitFor(
    `${name}'s cut to reach height ${height} on chains ${chains.join(', ')}`,
    async () => {
      const cut = await cutHeights(origin)
      const lowest = Math.min(...chains.map((chain) => cut.get(chain) ?? -1))
      return lowest >= height ? lowest : undefined
    },
    timeout,
    500,
  )
}

async function checks(options: RunOptions, clusterOptions: ClusterOptions, cluster: Cluster, results: CheckResult[]): Promise<PageScope> {
  const lowest = await cutAtLeast('the ingest node', cluster.ingest.url, options.chains, options.minHeight + margin, options.timeout)
  const scope: PageScope = { chains: options.chains, maxheight: lowest - margin, limit: options.limit }
  for (const replica of cluster.replicas) await cutAtLeast(replica.name, replica.url, scope.chains, lowest, options.timeout)
  progress(`comparing chains ${scope.chains.join(', ')} up to height ${scope.maxheight}`)
  const reference = await referencePages(cluster, scope)
  const [first, victim, third] = cluster.replicas as [ClusterNode, ClusterNode, ClusterNode]
  results.push(
    await runCheck('a', "pages through HAProxy equal the ingest node's", () => checkPages(cluster, scope, reference, options.timeout)),
  )
  results.push(await runCheck('b', 'a cursor from one replica continues on another', () => checkCursor(first, third, cluster, scope)))
  const pages = [...reference.values()].flat()
  const failover = { workers: options.workers, before: 3000, after: 5000, timeout: options.timeout }
  results.push(
    await runCheck('c', 'a killed replica fails no request once HAProxy has marked it down', () =>
      checkFailover(cluster, victim, pages, failover),
    ),
  )
  results.push(await runCheck('d', 'a restarted replica rejoins', () => checkRejoin(clusterOptions, cluster, victim, scope, reference)))
  results.push(await runCheck('e', 'an event stream through HAProxy', () => checkStream(cluster, options.timeout)))
  const deep = await deepPages(cluster, options.finalDepth, 20)
  results.push(await runCheck('f', 'deep pages are kept by the cache in front', () => checkCacheHits(cluster, deep)))
  results.push(await runCheck('g', 'the cache keeps nothing that changes', () => checkNothingStale(cluster, deep, options.timeout)))
  const bench = { connections: options.benchConnections, seconds: options.benchSeconds, minSpeedup: options.minSpeedup }
  results.push(await runCheck('h', 'repeated deep-page reads through the cache', () => checkThroughput(cluster, deep, bench)))
  results.push(
    await runCheck('i', 'a new replica starts from a snapshot served by a plain static server', () =>
      checkBootstrap(clusterOptions, cluster, scope, reference, options.snapshotEvery),
    ),
  )
  return scope
}

let runDir = ''

async function cleanUp(keep: boolean, failed: boolean): Promise<void> {
  await stopAll()
  if (failed) for (const proc of started) process.stderr.write(`--- last lines of ${proc.name}'s log (${proc.log})\n${logTail(proc)}\n`)
  if (!keep && runDir !== '') rmSync(runDir, { recursive: true, force: true })
}

async function main(argv: readonly string[]): Promise<number> {
  let options: RunOptions
  try {
    options = readOptions(argv)
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`)
    return 2
  }
  if (options.help) {
    process.stdout.write(usage)
    return 0
  }
  let haproxy: string
  let nginx: string
  try {
    haproxy = haproxyVersion()
    nginx = nginxVersion()
  } catch (error) {
    process.stderr.write(`cluster:check: ${error instanceof Error ? error.message : String(error)}\n`)
    return 1
  }
  runDir = mkdtempSync(join(tmpdir(), 'weft-cluster-'))
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.once(signal, () => {
      progress(`${signal}: stopping every process and deleting ${runDir}`)
      cleanUp(options.keep, false).finally(() => process.exit(code))
    })
  }
  const start = performance.now()
  const results: CheckResult[] = []
  let error: string | undefined
  let cluster: Cluster | undefined
  let scope: PageScope | undefined
  progress(`${haproxy}; ${nginx}; run folder ${runDir}`)
  try {
    const clusterOptions: ClusterOptions = {
      dir: runDir,
      blockDelay: options.blockDelay,
      forkRate: options.forkRate,
      checkInter: options.checkInter,
      timeout: options.timeout,
      finalDepth: options.finalDepth,
    }
    cluster = await startCluster(clusterOptions, progress)
    scope = await checks(options, clusterOptions, cluster, results)
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught)
    process.stdout.write(`FAIL the topology could not be run: ${error}\n`)
  }
  const pass = error === undefined && results.length === 9 && results.every((r) => r.pass)
  await cleanUp(options.keep, !pass)
  const summary = {
    pass,
    haproxy,
    nginx,
    node: process.version,
    options: { ...options, help: undefined, timeout: options.timeout / 1000 },
    folder: options.keep ? runDir : null,
    timings: { ...cluster?.timings, totalMs: Math.round(performance.now() - start) },
    scope: scope ?? null,
    checks: Object.fromEntries(results.map((r) => [r.id, { title: r.title, pass: r.pass, ms: r.ms, ...r.figures }])),
    ...(error === undefined ? {} : { error }),
  }
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`)
  return pass ? 0 : 1
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  async (error: unknown) => {
    process.stderr.write(`cluster:check: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    await stopAll()
    process.exit(1)
  },
)
