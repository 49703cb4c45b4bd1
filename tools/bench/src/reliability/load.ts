import { connect, type Socket } from 'node:net'
import autocannon from 'autocannon'
import type { KnownBlocks } from './known.js'

const base = '/chain/0.0/development'

/** The mixed reads of a heavy client: pages of blocks, headers and hashes, branches, payload batches, the cut, /info. */
export function mixedReads(known: KnownBlocks): autocannon.Request[] {
  const heights = known.heights
  const requests: autocannon.Request[] = []
  const json = { 'content-type': 'application/json' }
  for (let chain = 0; chain < 20; chain++) {
    const head = known.heads[String(chain)]
    const minheight = (chain * 37) % Math.max(1, heights - 100)
    requests.push({ method: 'GET', path: `${base}/chain/${chain}/block?limit=100&minheight=${minheight}` })
    if (chain % 2 === 0) requests.push({ method: 'GET', path: `${base}/chain/${chain}/header?limit=360` })
    if (chain % 4 === 0) requests.push({ method: 'GET', path: `${base}/chain/${chain}/hash?minheight=${minheight}` })
    if (chain % 3 === 0 && head !== undefined)
      requests.push({
        method: 'POST',
        path: `${base}/chain/${chain}/block/branch?limit=50`,
        headers: json,
        body: JSON.stringify({ upper: [head] }),
      })
    if (chain % 5 === 0)
      requests.push({
        method: 'POST',
        path: `${base}/chain/${chain}/payload/outputs/batch`,
        headers: json,
        body: JSON.stringify(known.payloads),
      })
    if (chain % 5 === 1) requests.push({ method: 'GET', path: `${base}/cut` }, { method: 'GET', path: '/info' })
  }
  return requests
}

/** What a load run measured. */
export interface LoadRun {
  readonly requests: number
  readonly rps: number
  readonly errors: number
  readonly non2xx: number
  readonly p99Ms: number
}

/** `connections` clients sending `requests` in turn, for `seconds`. */
export async function readLoad(url: string, requests: autocannon.Request[], connections: number, seconds: number): Promise<LoadRun> {
  const result = await autocannon({ url, connections, duration: seconds, requests })
  return {
    requests: result.requests.total,
    rps: result.requests.average,
    errors: result.errors,
    non2xx: result.non2xx,
    p99Ms: result.latency.p99,
  }
}

/**
 * Clients that ask and never read: event streams of both kinds and pages of 360 blocks. What the node
 * writes them piles up in the kernel's buffers, then in the node's, until it cuts them or they leave.
 */
export async function stalledClients(
  port: number,
  counts: { blockStreams: number; headerStreams: number; pages: number },
): Promise<Socket[]> {
  const paths = [
    ...Array<string>(counts.blockStreams).fill(`${base}/block/updates`),
    ...Array<string>(counts.headerStreams).fill(`${base}/header/updates`),
    ...Array.from({ length: counts.pages }, (_, index) => `${base}/chain/${index % 20}/block?limit=360`),
  ]
  return Promise.all(
    paths.map(
      (path) =>
        new Promise<Socket>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1', () => {
            socket.pause()
            socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)
            resolve(socket)
          })
          socket.on('error', () => {})
          socket.once('error', reject)
        }),
    ),
  )
}
