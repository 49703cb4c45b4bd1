import { loadavg } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import { chainPaths } from '@weft/api'
import { measureThroughput, type RawAnswer, rawGet, type Throughput } from './cache-http.js'
import { base, type Cluster } from './cluster.js'
import { cpuSeconds } from './cpu-time.js'
import { ClusterCheckError } from './errors.js'
import { cutHeights } from './pages.js'
import type { Outcome } from './report.js'
import { waitFor } from './wait.js'

const immutable = 'public, max-age=31536000, immutable'
// The near-tip max-age the nodes send (RECENT_MAX_AGE of @weft/server): a cached near-tip page lives that long at most.
const recentSeconds = 5
const objects = { accept: 'application/json;blockheader-encoding=object' }

/** A page that the replicas mark immutable: its path and the ingest node's bytes of it. */
export interface DeepPage {
  readonly path: string
  readonly body: Buffer
}

// A 502, 503 or 504 is HAProxy (or nginx) without a replica for a moment (on a loaded machine a busy
// replica misses a health check): asked again, up to 30 s; these checks are about what is kept, not availability.
async function answered(url: string, what: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const answer = await waitFor(
    `a 200 for ${what}`,
    async () => {
      const got = await rawGet(url, { headers })
      return got.status >= 502 && got.status <= 504 ? undefined : got
    },
    30_000,
    250,
  )
  if (answer.status !== 200) throw new ClusterCheckError('CLUSTER_BAD_ANSWER', `Expected 200 for ${what}, received ${answer.status}`)
  return answer
}

const cacheStatus = (answer: RawAnswer): string => String(answer.headers['x-cache-status'] ?? 'none')

/** The lowest head among the replicas' cuts: a page below it less the final depth is final on every replica. */
async function lowestReplicaHead(cluster: Cluster): Promise<number> {
  const cuts = await Promise.all(cluster.replicas.map((replica) => cutHeights(replica.url)))
  return Math.min(...cuts.flatMap((cut) => [...cut.values()]))
}

/** The full block page (no limit: up to 360) of each chain up to the deepest final height of every replica, with the ingest node's bytes. */
export async function deepPages(cluster: Cluster, finalDepth: number, chains: number): Promise<DeepPage[]> {
  const maxheight = (await lowestReplicaHead(cluster)) - finalDepth - 1
  if (maxheight < 1) throw new ClusterCheckError('CLUSTER_BAD_ANSWER', `Expected the replicas' cuts above ${finalDepth + 1}`)
  return Promise.all(
    Array.from({ length: chains }, async (_, chain) => {
      const path = chainPaths.blockPage(base, chain, { maxheight })
      return { path, body: (await answered(`${cluster.ingest.url}${path}`, `${path} from the ingest node`)).body }
    }),
  )
}

/** Asks `path` through the cache twice: the second must be a hit; both the `expected` bytes, immutable. */
async function missThenHit(
  cache: string,
  path: string,
  expected: Buffer,
  headers: Record<string, string> = {},
): Promise<string | undefined> {
  const first = await answered(`${cache}${path}`, path, headers)
  const second = await answered(`${cache}${path}`, path, headers)
  for (const [answer, which] of [
    [first, 'first'],
    [second, 'second'],
  ] as const) {
    if (!answer.body.equals(expected)) return `${path} ${headers.accept ?? ''}: the ${which} answer is not the ingest node's bytes`
    if (answer.headers['cache-control'] !== immutable) return `${path}: the ${which} answer is ${answer.headers['cache-control']}`
  }
  if (cacheStatus(second) !== 'HIT') return `${path} ${headers.accept ?? ''}: asked twice, the second was ${cacheStatus(second)}, not HIT`
  return undefined
}

/** (f) Deep pages, both header encodings of a deep header page (Vary: Accept) and a tip header by hash are kept and served by the cache. */
export async function checkCacheHits(cluster: Cluster, pages: readonly DeepPage[]): Promise<Outcome> {
  const problems: string[] = []
  for (const page of pages) problems.push(...[await missThenHit(cluster.cache, page.path, page.body)].filter((p) => p !== undefined))
  const headerPath = pages[0]!.path.replace('/block?', '/header?')
  const texts = (await answered(`${cluster.ingest.url}${headerPath}`, headerPath)).body
  const asObjects = (await answered(`${cluster.ingest.url}${headerPath}`, headerPath, objects)).body
  const cut = JSON.parse((await rawGet(`${cluster.ingest.url}${chainPaths.cut(base)}`)).body.toString('utf8')) as {
    hashes: Record<string, { hash: string }>
  }
  const tipPath = `${base}/chain/0/header/${cut.hashes['0']?.hash}`
  const tip = (await answered(`${cluster.ingest.url}${tipPath}`, tipPath)).body
  for (const problem of [
    await missThenHit(cluster.cache, headerPath, texts),
    await missThenHit(cluster.cache, headerPath, asObjects, objects),
    await missThenHit(cluster.cache, tipPath, tip),
  ]) {
    if (problem !== undefined) problems.push(problem)
  }
  const pass = problems.length === 0 && !texts.equals(asObjects)
  return {
    pass,
    detail: pass
      ? `${pages.length} deep block pages (${pages[0]!.path.split('?')[1]}), a deep header page in both encodings (Vary: Accept) and the tip header of chain 0 by hash: each MISS then HIT through nginx, the ingest node's bytes, ${immutable}`
      : problems.slice(0, 3).join('; '),
    figures: { pages: pages.length, headerPage: headerPath, tipHeader: tipPath, problems: problems.length },
  }
}

/**
 * (g) The cut is never served from the cache, a near-tip page is kept no longer than its short max-age,
 * and the deep pages the cache holds are still what the replicas answer, many blocks later.
 */
export async function checkNothingStale(cluster: Cluster, pages: readonly DeepPage[], timeout: number): Promise<Outcome> {
  const cutPath = chainPaths.cut(base)
  const cutStatuses: string[] = []
  for (let i = 0; i < 3; i++) {
    const answer = await answered(`${cluster.cache}${cutPath}`, cutPath)
    cutStatuses.push(`${cacheStatus(answer)} (${answer.headers['cache-control']})`)
  }
  const lowest = Math.min(...(await cutHeights(cluster.ingest.url)).values())
  const path = chainPaths.blockPage(base, 0, { minheight: lowest - 1 })
  const before = await answered(`${cluster.cache}${path}`, path)
  const cachedAt = performance.now()
  const again = await answered(`${cluster.cache}${path}`, path)
  // The page changes once chain 0 has a new block at or above minheight; wait for that on the ingest node, and for the max-age to run out.
  await waitFor(
    `${path} to change on the ingest node`,
    async () => ((await rawGet(`${cluster.ingest.url}${path}`)).body.equals(before.body) ? undefined : true),
    timeout,
    250,
  )
  await sleep(Math.max(0, cachedAt + (recentSeconds + 1) * 1000 - performance.now()))
  const after = await answered(`${cluster.cache}${path}`, path)
  const changed = !after.body.equals(before.body)
  let deepSame = 0
  for (const page of pages) {
    const [cached, replica] = await Promise.all([rawGet(`${cluster.cache}${page.path}`), rawGet(`${cluster.replicas[0]!.url}${page.path}`)])
    if (cacheStatus(cached) === 'HIT' && cached.body.equals(page.body) && replica.body.equals(page.body)) deepSame++
  }
  const tipControl = String(before.headers['cache-control'])
  const pass =
    cutStatuses.every((s) => !s.startsWith('HIT')) &&
    tipControl === `public, max-age=${recentSeconds}` &&
    changed &&
    cacheStatus(after) !== 'HIT' &&
    deepSame === pages.length
  return {
    pass,
    detail:
      `GET ${cutPath} three times through nginx: ${cutStatuses.join(', ')}; near-tip ${path}: ${tipControl}, ` +
      `${cacheStatus(before)} then ${cacheStatus(again)}, after new blocks and ${recentSeconds} s ${cacheStatus(after)} with ${changed ? 'the new bytes' : 'the OLD bytes'}; ` +
      `${deepSame} of ${pages.length} deep pages still HIT with the bytes replica1 answers now`,
    figures: {
      cut: cutStatuses,
      nearTip: {
        path,
        cacheControl: tipControl,
        first: cacheStatus(before),
        second: cacheStatus(again),
        after: cacheStatus(after),
        changed,
      },
      deepPagesUnchanged: deepSame,
    },
  }
}

// Pages answered with the expected bytes.
const good = (run: Throughput): number => run.requests - run.failures

// The bursts of one side as one run.
function sum(runs: readonly Throughput[]): Throughput {
  const total = (pick: (run: Throughput) => number): number => runs.reduce((acc, run) => acc + pick(run), 0)
  const requests = total((run) => run.requests)
  const elapsed = total((run) => run.seconds)
  const cacheStatus: Record<string, number> = {}
  for (const run of runs)
    for (const [status, count] of Object.entries(run.cacheStatus)) cacheStatus[status] = (cacheStatus[status] ?? 0) + count
  return {
    requests,
    failures: total((run) => run.failures),
    seconds: Math.round(elapsed * 100) / 100,
    perSecond: Math.round((requests - total((run) => run.failures)) / elapsed),
    megabytesPerSecond: Math.round((total((run) => run.megabytesPerSecond * run.seconds) / elapsed) * 10) / 10,
    cacheStatus,
    examples: runs.flatMap((run) => run.examples).slice(0, 3),
  }
}

/** Throughput settings of (h). */
export interface ThroughputOptions {
  readonly connections: number
  readonly seconds: number
  readonly minSpeedup: number
}

// The bursts D C C D: the replicas alone (0) and through the cache (1), each with the CPU seconds the
// topology's processes used meanwhile.
async function bursts(cluster: Cluster, pages: readonly DeepPage[], connections: number, seconds: number, topology: number[]) {
  const runs: Throughput[][] = [[], []]
  const cpu = [0, 0]
  for (const through of [0, 1, 1, 0]) {
    const before = cpuSeconds(topology)
    runs[through]!.push(await measureThroughput(through === 0 ? cluster.lb : cluster.cache, pages, connections, seconds / 2))
    cpu[through]! += cpuSeconds(topology) - before
  }
  return { runs, cpu }
}

/**
 * (h) Repeated deep-page reads through nginx against the same reads through HAProxy to the replicas
 * alone, in bursts of half the time, D C C D, so that drift in the shared machine's speed hits both
 * alike. The devnet node is paused (SIGSTOP) meanwhile: no new blocks, so the replicas and the
 * ingest node do nothing but the reads, and the CPU seconds the topology's processes use (nginx
 * with its workers) are the cost of the pages, which the other jobs of a shared machine do not
 * change as they change the rates.
 */
export async function checkThroughput(cluster: Cluster, pages: readonly DeepPage[], options: ThroughputOptions): Promise<Outcome> {
  const { connections, seconds, minSpeedup } = options
  const topology = [cluster.ingest, ...cluster.replicas].map((node) => node.proc.pid)
  topology.push(cluster.haproxy.pid, cluster.nginx.pid)
  process.kill(cluster.devnet.proc.pid, 'SIGSTOP')
  let measured: Awaited<ReturnType<typeof bursts>>
  try {
    measured = await bursts(cluster, pages, connections, seconds, topology)
  } finally {
    process.kill(cluster.devnet.proc.pid, 'SIGCONT')
  }
  const { runs, cpu } = measured
  const direct = sum(runs[0]!)
  const cached = sum(runs[1]!)
  const speedup = Math.round((cached.perSecond / Math.max(1, direct.perSecond)) * 10) / 10
  const hits = cached.cacheStatus.HIT ?? 0
  const perCpuSecond = cpu.map((seconds, side) => Math.round(good([direct, cached][side]!) / Math.max(0.01, seconds)))
  const cpuSpeedup = Math.round((perCpuSecond[1]! / Math.max(1, perCpuSecond[0]!)) * 10) / 10
  // The rates move with whatever else the machine runs (both sides share its cores with the client and
  // the other jobs); the cost per page does not: either reaching the target passes, both are reported.
  // Answers the replicas could not give (HAProxy's 503 while a saturated replica misses its health checks) are
  // reported, not failed: they are the replicas' limit, which the cache is there to lift.
  const pass = cached.failures === 0 && hits === cached.requests && Math.max(speedup, cpuSpeedup) >= minSpeedup
  const kib = Math.round(pages.reduce((sum, page) => sum + page.body.length, 0) / pages.length / 1024)
  return {
    pass,
    detail:
      `${pages.length} deep pages (${kib} KiB on average) read over ${connections} connections for ${seconds} s each (bursts D C C D): ` +
      `${direct.perSecond}/s through HAProxy to the replicas, ${cached.perSecond}/s through nginx (${hits} of ${cached.requests} HIT): ` +
      `${speedup} times; per CPU second of the topology's processes ` +
      `${perCpuSecond[0]} and ${perCpuSecond[1]} pages: ${cpuSpeedup} times (at least ${minSpeedup} wanted of one); failed (not counted) ${direct.failures} and ${cached.failures}; load average ${loadavg()[0]?.toFixed(1)}`,
    figures: { speedup, cpuSpeedup, perCpuSecond: { direct: perCpuSecond[0], cached: perCpuSecond[1] }, direct, cached, pageKiB: kib },
  }
}
