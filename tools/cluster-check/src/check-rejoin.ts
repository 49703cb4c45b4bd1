import type { PageScope } from './check-pages.js'
import { samePages } from './check-pages.js'
import { type Cluster, type ClusterNode, type ClusterOptions, replicaNames, restartReplica, waitReady } from './cluster.js'
import { isUp, readStats, statRow, waitForServers } from './haproxy.js'
import { startLoad, tally } from './load.js'
import type { Page } from './pages.js'
import type { Outcome } from './report.js'
import { waitFor } from './wait.js'

/** Sessions HAProxy has sent to the server in the replicas' backend (its health checks not counted). */
export async function sessions(cluster: Cluster, name: string): Promise<number> {
  return Number(statRow(await readStats(cluster.stats), 'weft_replicas', name).stot ?? 0)
}

/**
 * (d) Starts the killed replica again on its data folder and port: it must become ready, HAProxy
 * must mark it up in both backends, traffic through HAProxy must reach it (its session count grows)
 * without a failed request, and its pages must equal the ingest node's.
 */
export async function checkRejoin(
  options: ClusterOptions,
  cluster: Cluster,
  victim: ClusterNode,
  scope: PageScope,
  reference: Map<number, Page[]>,
): Promise<Outcome> {
  if (!victim.proc.gone()) {
    victim.proc.child.kill('SIGKILL')
    await victim.proc.exited
  }
  const start = performance.now()
  await restartReplica(options, cluster, victim)
  await waitReady(victim, options.timeout)
  const readyMs = Math.round(performance.now() - start)
  await waitForServers(cluster.stats, [victim.name], isUp, `HAProxy to mark ${victim.name} up again`, options.timeout)
  const upMs = Math.round(performance.now() - start)
  const before = await sessions(cluster, victim.name)
  const others = replicaNames.filter((name) => name !== victim.name)
  const load = startLoad(cluster.lb, [...reference.values()].flat(), 2, 30_000)
  let reached: number
  try {
    // Slow start ramps its weight up over a few seconds: wait for the first sessions it takes.
    reached = await waitFor(
      `traffic through HAProxy to reach ${victim.name}`,
      async () => {
        const now = await sessions(cluster, victim.name)
        return now > before ? now - before : undefined
      },
      options.timeout,
      200,
    )
  } finally {
    await load.stop()
  }
  const traffic = tally(load.samples)
  const pages = await samePages(victim.url, reference, scope, options.timeout)
  const figures = {
    restartToReadyMs: readyMs,
    restartToUpMs: upMs,
    requests: traffic.requests,
    failures: traffic.failures,
    sessionsReachingIt: reached,
    pages: pages.pages,
    pageAttempts: pages.attempts,
  }
  const failures = [
    ...(traffic.failures > 0 ? [`${traffic.failures} of ${traffic.requests} requests failed: ${traffic.examples.join(' | ')}`] : []),
    ...(pages.differs === undefined ? [] : [`its pages differ from the ingest node's: ${pages.differs}`]),
  ]
  const detail =
    `${victim.name} restarted on its data folder: ready after ${readyMs} ms, up in HAProxy after ${upMs} ms, ` +
    `${reached} sessions reached it among ${traffic.requests} requests (the others went to ${others.join(', ')}), ${traffic.failures} failed; ` +
    `its ${pages.pages} pages ${pages.differs === undefined ? 'equal' : 'differ from'} the ingest node's` +
    (failures.length > 0 ? `; ${failures.join('; ')}` : '')
  return { pass: failures.length === 0, detail, figures }
}
