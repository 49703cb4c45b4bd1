import { createHash } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import autocannon from 'autocannon'
import { createRandom } from '@weft/devnet'
import type { Dataset } from '../data.js'
import { BodyMismatchError, RequestFailedError } from '../errors.js'
import { figure, round, type Figure } from '../figure.js'
import { fetchBytes } from '../http-client.js'

/** Settings of the block-page load test. */
export interface BlockPagesOptions {
  readonly dataset: Dataset
  /** Height of each chain's best head. */
  readonly heads: ReadonlyMap<number, number>
  readonly seconds: number
  readonly warmupSeconds: number
  readonly connections: number
  readonly limit: number
  /** Requests whose bodies are compared byte for byte between the two servers. */
  readonly sample: number
}

/** What one load test measured. */
export interface LoadResult {
  readonly rps: number
  readonly seconds: number
  readonly p50: number
  readonly p99: number
  readonly requests: number
  readonly bytesPerSecond: number
  readonly bodyDigests: string[]
}

/**
 * The seeded request list, the same for both servers: a random chain, then a random height low
 * enough that the page is full (`limit` blocks), so that every request asks for the same work.
 */
export function pagePaths(options: Pick<BlockPagesOptions, 'dataset' | 'heads' | 'limit'>, count: number): string[] {
  const random = createRandom('weft-bench-block-pages')
  const chains = [...options.heads.keys()]
  const paths: string[] = []
  for (let index = 0; index < count; index += 1) {
    const chain = random.pick(chains)
    const top = Math.max(0, (options.heads.get(chain) ?? 0) - options.limit)
    paths.push(`/chain/0.0/${options.dataset.network}/chain/${chain}/block?limit=${options.limit}&minheight=${random.int(top + 1)}`)
  }
  return paths
}

/** Loads one server: sample bodies first, then a warm-up, then the measured run. */
export async function loadPages(url: string, paths: readonly string[], options: BlockPagesOptions, firstRequest = 0): Promise<LoadResult> {
  const digests: string[] = []
  for (const path of paths.slice(0, options.sample)) {
    const response = await fetchBytes(url + path)
    if (response.status !== 200) throw new RequestFailedError(`${path} answered ${response.status}`)
    digests.push(createHash('sha256').update(response.body).digest('hex'))
  }
  const run = async (seconds: number, from: number): Promise<autocannon.Result> => {
    let index = from
    return autocannon({
      url,
      connections: options.connections,
      duration: seconds,
      requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: paths[index++ % paths.length] ?? '/' }) }],
    })
  }
  // The warm-up takes its requests from the far end of the list, which no measured segment reaches.
  await run(options.warmupSeconds, paths.length - 20_000)
  const result = await run(options.seconds, firstRequest)
  // autocannon stops mid-request: let the server finish those before anyone closes it.
  await sleep(500)
  if (result.non2xx > 0 || result.errors > 0) throw new RequestFailedError(`block pages: ${result.non2xx} non-2xx answers and ${result.errors} errors of ${result.requests.total}`)
  return {
    rps: result['2xx'] / result.duration,
    seconds: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result['2xx'],
    bytesPerSecond: result.throughput.average,
    bodyDigests: digests,
  }
}

/** Two load runs of one server as one: requests and seconds add up; latencies are the worse of the two. */
export function combineLoads(a: LoadResult, b: LoadResult): LoadResult {
  const seconds = a.seconds + b.seconds
  return {
    rps: (a.requests + b.requests) / seconds,
    seconds,
    p50: Math.max(a.p50, b.p50),
    p99: Math.max(a.p99, b.p99),
    requests: a.requests + b.requests,
    bytesPerSecond: (a.bytesPerSecond * a.seconds + b.bytesPerSecond * b.seconds) / seconds,
    bodyDigests: [...a.bodyDigests, ...b.bodyDigests],
  }
}

/** Figure 1: GET block pages per second under concurrent load, weft against the bare floor. */
export function blockPagesFigure(options: BlockPagesOptions, weft: LoadResult, floor: LoadResult): Figure {
  weft.bodyDigests.forEach((digest, index) => {
    if (digest !== floor.bodyDigests[index]) throw new BodyMismatchError(`weft and the floor answered different bodies for request ${index} of the list`)
  })
  return figure({
    name: 'block-pages',
    value: weft.rps,
    floor: floor.rps,
    target: 0.85,
    bounds: 'ratio',
    direction: '>=',
    unit: 'requests/s',
    floorIs: 'bare node:http server: store.range + readRangeBlocks, same page bytes',
    details: {
      connections: options.connections,
      segments: 'weft floor floor weft weft floor',
      weftSeconds: round(weft.seconds, 1),
      floorSeconds: round(floor.seconds, 1),
      limit: options.limit,
      weftRequests: weft.requests,
      floorRequests: floor.requests,
      weftLatencyP50Ms: weft.p50,
      weftLatencyP99Ms: weft.p99,
      floorLatencyP50Ms: floor.p50,
      floorLatencyP99Ms: floor.p99,
      weftMiBPerSecond: round(weft.bytesPerSecond / 2 ** 20),
      identicalBodiesChecked: weft.bodyDigests.length,
    },
  })
}
