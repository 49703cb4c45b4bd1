import { setTimeout as sleep } from 'node:timers/promises'
import type { Cluster, ClusterNode } from './cluster.js'
import { getOk } from './http.js'
import { chainPages, countBlocks, nextOf, type Page, pagePath, pagesDiffer } from './pages.js'
import type { Outcome } from './report.js'

/** What the page checks compare: chains, the height bound, the page size. */
export interface PageScope {
  readonly chains: readonly number[]
  readonly maxheight: number
  readonly limit: number
}

/** The ingest node's pages of every chain in scope: the reference every other answer is compared with. */
export async function referencePages(cluster: Cluster, scope: PageScope): Promise<Map<number, Page[]>> {
  const pages = new Map<number, Page[]>()
  for (const chain of scope.chains) pages.set(chain, await chainPages(cluster.ingest.url, chain, scope.maxheight, scope.limit))
  return pages
}

/**
 * Compares `origin`'s pages of every chain in scope with the reference, again once a second until
 * they agree or `timeout` ms have passed (a node that is behind catches up; one that differs does not).
 */
export async function samePages(
  origin: string,
  reference: Map<number, Page[]>,
  scope: PageScope,
  timeout: number,
): Promise<{ differs: string | undefined; attempts: number; pages: number }> {
  const deadline = performance.now() + timeout
  let attempts = 0
  for (;;) {
    attempts += 1
    let differs: string | undefined
    let pages = 0
    for (const chain of scope.chains) {
      const actual = await chainPages(origin, chain, scope.maxheight, scope.limit)
      pages += actual.length
      const diff = pagesDiffer(reference.get(chain) ?? [], actual)
      if (diff !== undefined) {
        differs = `chain ${chain}: ${diff}`
        break
      }
    }
    if (differs === undefined || performance.now() > deadline) return { differs, attempts, pages }
    await sleep(1000)
  }
}

/** (a) Pages through HAProxy, and from each replica directly, equal the ingest node's byte for byte. */
export async function checkPages(cluster: Cluster, scope: PageScope, reference: Map<number, Page[]>, timeout: number): Promise<Outcome> {
  const all = [...reference.values()].flat()
  const { blocks, forks } = countBlocks(all)
  const lb = await samePages(cluster.lb, reference, scope, timeout)
  const direct: Array<{ replica: string; differs: string | undefined; attempts: number }> = []
  for (const replica of cluster.replicas)
    direct.push({ replica: replica.name, ...(await samePages(replica.url, reference, scope, timeout)) })
  const failures = [
    ...(lb.differs === undefined ? [] : [`through HAProxy, ${lb.differs}`]),
    ...direct.flatMap((d) => (d.differs === undefined ? [] : [`${d.replica}, ${d.differs}`])),
  ]
  const figures = {
    chains: scope.chains,
    maxheight: scope.maxheight,
    limit: scope.limit,
    pages: all.length,
    blocks,
    forks,
    lbAttempts: lb.attempts,
  }
  const what = `${all.length} pages of chains ${scope.chains.join(', ')} up to height ${scope.maxheight} (${blocks} blocks, ${forks} of them forks), limit ${scope.limit}`
  return failures.length === 0
    ? { pass: true, detail: `${what}: the same bytes through HAProxy and from each of ${cluster.replicas.length} replicas`, figures }
    : { pass: false, detail: `${what}: ${failures.join('; ')}`, figures }
}

/** (b) Page 1 from one replica, page 2 with its cursor from another: the ingest node's two pages. */
export async function checkCursor(first: ClusterNode, second: ClusterNode, cluster: Cluster, scope: PageScope): Promise<Outcome> {
  const chain = scope.chains[0] ?? 0
  const path1 = pagePath(chain, scope.maxheight, scope.limit)
  const page1 = await getOk(`${first.url}${path1}`)
  const cursor = nextOf(page1)
  if (cursor === undefined)
    return { pass: false, detail: `chain ${chain} holds one page only up to ${scope.maxheight}: no cursor to carry`, figures: {} }
  const path2 = pagePath(chain, scope.maxheight, scope.limit, cursor)
  const page2 = await getOk(`${second.url}${path2}`)
  const expected1 = await getOk(`${cluster.ingest.url}${path1}`)
  const expected2 = await getOk(`${cluster.ingest.url}${path2}`)
  const figures = { chain, cursor, bytes: page1.length + page2.length }
  const same = page1 === expected1 && page2 === expected2
  const where = `page 1 from ${first.name}, page 2 from ${second.name} with its cursor ${cursor}`
  return same
    ? { pass: true, detail: `${where}: both equal the ingest node's pages byte for byte`, figures }
    : {
        pass: false,
        detail: `${where}: page 1 ${page1 === expected1 ? 'equal' : 'differs'}, page 2 ${page2 === expected2 ? 'equal' : 'differs'}`,
        figures,
      }
}
