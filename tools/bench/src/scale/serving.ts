// Latencies of the queries whose cost must not grow with the store: pages near the tip and deep in
// the chain, a branch below a tip, the cut, a header by hash, and from the transaction index a
// request key far from the tip (`{base}/transaction/{requestKey}`) and a page of coin.TRANSFER
// events ending at a random height (`{base}/event?name=`); asked of two nodes in turn (the
// large store and the small one), so that drift on the machine hits both alike. Each query is asked
// twice in a row: its first read meets the disk where the store is larger than the page cache (deep
// pages and old headers of a large store), its second read what the store itself costs.

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

/** The first reads of a kind of query (`p50`, `p99`) and the same queries read again at once. */
export interface Reads extends Latency {
  readonly again: Latency
}

/** The kinds of query measured. */
export const queryKinds = ['page-tip', 'page-deep', 'branch', 'cut', 'header', 'tx-lookup', 'events-page'] as const
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
    case 'tx-lookup':
      if (hashes.length === 0) hashes.push(...(await requestKeys(base, tips)))
      return [`${base}/transaction/${hashes[round % hashes.length]!}`]
    case 'events-page':
      return [`${base}/event?name=coin.TRANSFER&limit=100&maxheight=${Math.floor(draw('events', round, 0, kind) * tip)}`]
  }
}

// Request keys of transactions at random heights of every chain (from the outputs of blocks read by
// pages, not timed): lookups spread over the whole store, far from the tip.
async function requestKeys(base: string, tips: Tips): Promise<string[]> {
  const keys: string[] = []
  for (const [index, [chain, tip]] of [...tips.heights].entries()) {
    const minheight = Math.floor(draw('keys', index, 0, 'tx-lookup') * tip)
    const page = JSON.parse((await fetchOk(`${base}/chain/${chain}/block?limit=10&minheight=${minheight}`)).toString()) as {
      items: Array<{ payloadWithOutputs: { transactions: Array<[string, string]> } }>
    }
    for (const block of page.items)
      for (const [, output] of block.payloadWithOutputs.transactions)
        keys.push((JSON.parse(Buffer.from(output, 'base64url').toString()) as { reqKey: string }).reqKey)
  }
  if (keys.length === 0) throw new Error('no transaction found in the blocks sampled for request keys')
  return keys
}

// Milliseconds of one answered query.
async function timed(url: string, body: unknown): Promise<number> {
  const started = performance.now()
  const response = await fetchBytes(url, body)
  const elapsed = performance.now() - started
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${response.body.toString('utf8', 0, 200)}`)
  return elapsed
}

const latency = (values: readonly number[]): Latency => ({ p50: quantile(values, 0.5), p99: quantile(values, 0.99) })

/** p50/p99 of every kind of query on each node, first reads and reads again, `rounds` per kind after `warmup` rounds, alternating nodes. */
export async function servingLatencies(
  nodes: readonly ServedStore[],
  rounds: number,
  warmup: number,
): Promise<Array<Record<QueryKind, Reads>>> {
  const tips = await Promise.all(nodes.map(tipsOf))
  const results = nodes.map(() => ({}) as Record<QueryKind, Reads>)
  for (const kind of queryKinds) {
    const first = nodes.map(() => [] as number[])
    const again = nodes.map(() => [] as number[])
    const hashes = nodes.map(() => [] as string[])
    for (let round = 0; round < warmup + rounds; round++) {
      for (const [index, node] of nodes.entries()) {
        const [url, body] = await query(node, tips[index]!, kind, round, hashes[index]!)
        const firstRead = await timed(url, body)
        const readAgain = await timed(url, body)
        if (round < warmup) continue
        first[index]!.push(firstRead)
        again[index]!.push(readAgain)
      }
    }
    for (const index of nodes.keys()) results[index]![kind] = { ...latency(first[index]!), again: latency(again[index]!) }
  }
  return results
}
