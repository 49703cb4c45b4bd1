import { encodeHash } from '@weft/hash-text'
import { quantile } from '../figure.js'
import { fetchOk, pageEnds } from '../http-client.js'
import type { Throughput } from './sync.js'

/**
 * A whole-chain branch walk over HTTP: POST block/branch from the tip down to genesis, pages of
 * `limit`. `cursor` follows each page's `next` as the contract says; `moving-bound` instead asks
 * for the branch below the block `next` names (the same blocks, for one upper bound and no lower
 * bound), which shows what resuming at a cursor costs the server.
 */
export async function branchWalk(
  url: string,
  network: string,
  chain: number,
  tip: Uint8Array,
  limit: number,
  mode: 'cursor' | 'moving-bound' = 'cursor',
): Promise<Throughput> {
  let blocks = 0
  let bytes = 0
  let next: string | null = null
  const started = performance.now()
  do {
    const upper: string = mode === 'moving-bound' && next !== null ? next.slice('inclusive:'.length) : encodeHash(tip)
    const query: string = next === null || mode === 'moving-bound' ? `limit=${limit}` : `limit=${limit}&next=${encodeURIComponent(next)}`
    const answer: Buffer = await fetchOk(`${url}/chain/0.0/${network}/chain/${chain}/block/branch?${query}`, { upper: [upper], lower: [] })
    const page = pageEnds(answer)
    blocks += page.count
    bytes += answer.length
    next = page.next
  } while (next !== null)
  return { blocks, seconds: (performance.now() - started) / 1000, bytes }
}

/** A node to ask for the blocks below its tip. */
export interface BranchTarget {
  readonly url: string
  readonly network: string
  readonly tip: Uint8Array
}

/** Latencies (ms) of the page of `limit` blocks below each tip, requests alternating between the targets. */
export async function branchLatencies(
  targets: readonly BranchTarget[],
  limit: number,
  rounds: number,
  warmup: number,
): Promise<number[][]> {
  const latencies = targets.map(() => [] as number[])
  for (let round = 0; round < warmup + rounds; round += 1) {
    for (const [index, target] of targets.entries()) {
      const started = performance.now()
      const body = await fetchOk(`${target.url}/chain/0.0/${target.network}/chain/0/block/branch?limit=${limit}`, {
        upper: [encodeHash(target.tip)],
      })
      const elapsed = performance.now() - started
      if (pageEnds(body).count !== limit) throw new Error(`Expected ${limit} blocks below the tip, received ${pageEnds(body).count}`)
      if (round >= warmup) latencies[index]?.push(elapsed)
    }
  }
  return latencies
}

/** The median of latencies. */
export function median(values: readonly number[]): number {
  return quantile(values, 0.5)
}
