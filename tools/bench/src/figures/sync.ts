import type { ChainStore, RangeItem } from '@weft/store'
import { fetchOk, pageEnds } from '../http-client.js'

/** Blocks and seconds of one paging run. */
export interface Throughput {
  readonly blocks: number
  readonly seconds: number
  readonly bytes: number
}

/** Two throughputs as one. */
export function addThroughput(a: Throughput, b: Throughput): Throughput {
  return { blocks: a.blocks + b.blocks, seconds: a.seconds + b.seconds, bytes: a.bytes + b.bytes }
}

/** Blocks per second of a throughput. */
export function perSecond(t: Throughput): number {
  return t.blocks / t.seconds
}

/** One client pages whole chains over HTTP with limit 360, following `next` until it is null. */
export async function syncOverHttp(url: string, network: string, chains: readonly number[], limit: number): Promise<Throughput> {
  let blocks = 0
  let bytes = 0
  const started = performance.now()
  for (const chain of chains) {
    let next: string | null = null
    do {
      const query: string = next === null ? `limit=${limit}` : `limit=${limit}&next=${encodeURIComponent(next)}`
      const body: Buffer = await fetchOk(`${url}/chain/0.0/${network}/chain/${chain}/block?${query}`)
      const page = pageEnds(body)
      blocks += page.count
      bytes += body.length
      next = page.next
    } while (next !== null)
  }
  return { blocks, seconds: (performance.now() - started) / 1000, bytes }
}

/** The floor of a sync: the same blocks read in order in-process, in pages of the same size. */
export async function syncInProcess(store: ChainStore, chains: readonly number[], limit: number): Promise<Throughput> {
  let blocks = 0
  let bytes = 0
  const started = performance.now()
  for (const chain of chains) {
    let page: RangeItem[] = []
    const flush = async (): Promise<void> => {
      for (const block of await store.readRangeBlocks(page)) bytes += block.length
      blocks += page.length
      page = []
    }
    for await (const item of store.range({ chain })) {
      page.push(item)
      if (page.length === limit) await flush()
    }
    await flush()
  }
  return { blocks, seconds: (performance.now() - started) / 1000, bytes }
}
