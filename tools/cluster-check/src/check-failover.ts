import { setTimeout as sleep } from 'node:timers/promises'
import type { Cluster, ClusterNode } from './cluster.js'
import { isDown, readStats, statRow } from './haproxy.js'
import { startLoad, tally } from './load.js'
import type { Page } from './pages.js'
import type { Outcome } from './report.js'
import { waitFor } from './wait.js'

/** How the steady stream of requests runs around the kill. */
export interface FailoverOptions {
  readonly workers: number
  /** Milliseconds of traffic before the kill, and after HAProxy marked the replica down. */
  readonly before: number
  readonly after: number
  readonly timeout: number
}

// HAProxy's counters of retries and redispatches of the replicas' backend.
async function retryCounters(stats: string): Promise<{ retries: number; redispatches: number }> {
  const row = statRow(await readStats(stats), 'weft_replicas', 'BACKEND')
  return { retries: Number(row.wretr ?? 0), redispatches: Number(row.wredis ?? 0) }
}

/**
 * (c) SIGKILLs `victim` while a steady stream of page requests goes through HAProxy, keeps it going
 * until HAProxy's check has marked the replica down and `after` ms longer: no request that started
 * after the mark may fail (and, thanks to retries and redispatch, ideally none at all).
 */
export async function checkFailover(
  cluster: Cluster,
  victim: ClusterNode,
  pages: readonly Page[],
  options: FailoverOptions,
): Promise<Outcome> {
  const countersBefore = await retryCounters(cluster.stats)
  const load = startLoad(cluster.lb, pages, options.workers, options.timeout)
  let killedAt = 0
  let downAt = Number.POSITIVE_INFINITY
  try {
    await sleep(options.before)
    killedAt = performance.now()
    victim.proc.child.kill('SIGKILL')
    await waitFor(
      `HAProxy to mark ${victim.name} down after its SIGKILL`,
      async () => (isDown(statRow(await readStats(cluster.stats), 'weft_replicas', victim.name)) ? true : undefined),
      options.timeout,
      50,
    )
    downAt = performance.now()
    await sleep(options.after)
  } finally {
    await load.stop()
  }
  await victim.proc.exited
  const countersAfter = await retryCounters(cluster.stats)
  const overall = tally(load.samples)
  const beforeKill = load.samples.filter((s) => s.start < killedAt).length
  const afterDown = tally(load.samples, downAt)
  const figures = {
    workers: options.workers,
    requests: overall.requests,
    failures: overall.failures,
    requestsBeforeKill: beforeKill,
    requestsAfterDown: afterDown.requests,
    failuresAfterDown: afterDown.failures,
    killToDownMs: Math.round(downAt - killedAt),
    haproxyRetries: countersAfter.retries - countersBefore.retries,
    haproxyRedispatches: countersAfter.redispatches - countersBefore.redispatches,
    failureExamples: overall.examples,
  }
  const detail =
    `${victim.name} killed (SIGKILL) under ${options.workers} steady clients, marked down by HAProxy after ${figures.killToDownMs} ms; ` +
    `${afterDown.requests} requests after that, ${afterDown.failures} failed; ${overall.requests} requests in all, ${overall.failures} failed ` +
    `(HAProxy retried ${figures.haproxyRetries}, redispatched ${figures.haproxyRedispatches})` +
    (overall.examples.length > 0 ? `; failures: ${overall.examples.join(' | ')}` : '')
  return { pass: afterDown.failures === 0 && afterDown.requests > 0 && beforeKill > 0, detail, figures }
}
