// Latencies of the queries whose cost must not grow with the store: pages near the tip and deep in
// the chain, a branch below a tip, the cut, and a header by hash; asked of two nodes in turn (the
// large store and the small one), so that drift on the machine hits both alike.

import { quantile } from '../figure.js'
import { fetchBytes, fetchOk } from '../http-client.js'
import { draw } from './miner.js'

/** A node under test: its URL and network. */
export interface ServedStore {
  readonly url: string
  readonly network: string
}

/** p50 and p99 of one kind of query on one node, in milliseconds. */
export interface Latency {
  readonly p50: number
  readonly p99: number
}

/** The kinds of query measured. */
export const queryKinds = ['page-tip', 'page-deep', 'branch', 'cut', 'header'] as const
/** One of `queryKinds`. */
export type QueryKind = (typeof queryKinds)[number]

interface Tips {
  readonly heights: Map<string, number>
  readonly hashes: Map<string, string>
}

async function tipsOf(node: ServedStore): Promise<Tips> {
  const cut = JSON.parse((await fetchOk(`${node.url}/chain/0.0/${node.network}/cut`)).toString()) as {
    hashes: Record<string, { height: number; hash: string }>
  }
  const entries = Object.entries(cut.hashes)
  return {
    heights: new Map(entries.map(([chain, head]) => [chain, head.height])),
    hashes: new Map(entries.map(([chain, head]) => [chain, head.hash])),
  }
}

// The path (and body) of the `round`-th query of `kind` on `node`, drawn the same way for both nodes.
async function query(node: ServedStore, tips: Tips, kind: QueryKind, round: number, hashes: string[]): Promise<[string, unknown?]> {
  const base = `${node.url}/chain/0.0/${node.network}`
  const chains = [...tips.heights.keys()]
  const chain = chains[Math.floor(draw('serve', round, 0, kind) * chains.length)]!
  const tip = tips.heights.get(chain)!
  switch (kind) {
    case 'page-tip':
      return [`${base}/chain/${chain}/block?limit=100&minheight=${Math.max(0, tip - 120)}`]
    case 'page-deep':
      return [`${base}/chain/${chain}/block?limit=100&minheight=${Math.floor(draw('deep', round, 0, kind) * (tip / 10))}`]
    case 'branch':
      return [`${base}/chain/${chain}/block/branch?limit=100`, { upper: [tips.hashes.get(chain)!] }]
    case 'cut':
      return [`${base}/cut`]
    case 'header': {
      // Hashes of one chain, a third of the way up: a lookup by hash far from the tip.
      const first = chains[0]!
      if (hashes.length === 0) {
        const page = JSON.parse(
          (await fetchOk(`${base}/chain/${first}/hash?limit=4096&minheight=${Math.floor(tips.heights.get(first)! / 3)}`)).toString(),
        ) as {
          items: string[]
        }
        hashes.push(...page.items)
      }
      return [`${base}/chain/${first}/header/${hashes[round % hashes.length]!}`]
    }
  }
}

/** p50/p99 of every kind of query on each node, `rounds` per kind after `warmup` rounds, alternating nodes. */
export async function servingLatencies(
  nodes: readonly ServedStore[],
  rounds: number,
  warmup: number,
): Promise<Array<Record<QueryKind, Latency>>> {
  const tips = await Promise.all(nodes.map(tipsOf))
  const results = nodes.map(() => ({}) as Record<QueryKind, Latency>)
  for (const kind of queryKinds) {
    const samples = nodes.map(() => [] as number[])
    const hashes = nodes.map(() => [] as string[])
    for (let round = 0; round < warmup + rounds; round++) {
      for (const [index, node] of nodes.entries()) {
        const [url, body] = await query(node, tips[index]!, kind, round, hashes[index]!)
        const started = performance.now()
        const response = await fetchBytes(url, body)
        const elapsed = performance.now() - started
        if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${response.body.toString('utf8', 0, 200)}`)
        if (round >= warmup) samples[index]!.push(elapsed)
      }
    }
    for (const [index, values] of samples.entries()) results[index]![kind] = { p50: quantile(values, 0.5), p99: quantile(values, 0.99) }
  }
  return results
}
