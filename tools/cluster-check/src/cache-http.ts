import { Agent, type IncomingHttpHeaders, request } from 'node:http'

/** An answer with its status, headers and body bytes: the cache checks read headers (`x-cache-status`, `cache-control`). */
export interface RawAnswer {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly body: Buffer
}

/**
 * GET with node:http: the cache checks need the answer's headers, and the throughput figures a client
 * light enough not to be what is measured (fetch costs several times more per request).
 */
export function rawGet(
  url: string,
  options: { headers?: Record<string, string>; agent?: Agent; timeout?: number } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { headers: options.headers ?? {}, agent: options.agent ?? false, timeout: options.timeout ?? 30_000 },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
        res.on('error', reject)
      },
    )
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} within ${options.timeout ?? 30_000} ms`)))
    req.on('error', reject)
    req.end()
  })
}

/** What a run of repeated reads did. */
export interface Throughput {
  readonly requests: number
  readonly failures: number
  readonly seconds: number
  /** Pages answered with the expected bytes, per second. */
  readonly perSecond: number
  readonly megabytesPerSecond: number
  /** Answers by their `x-cache-status` (`none` when absent). */
  readonly cacheStatus: Readonly<Record<string, number>>
  readonly examples: readonly string[]
}

// One GET whose body is compared with `expected` chunk by chunk as it arrives (no copy of the body: the
// client must cost as little as it can, or it is what the cache's figure measures). Resolves with the cache status.
function getMatching(url: string, expected: Buffer, agent: Agent): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, timeout: 30_000 }, (res) => {
      let offset = 0
      let same = res.statusCode === 200
      res.on('data', (chunk: Buffer) => {
        same = same && expected.compare(chunk, 0, chunk.length, offset, offset + chunk.length) === 0
        offset += chunk.length
      })
      res.on('end', () => {
        if (same && offset === expected.length) resolve(String(res.headers['x-cache-status'] ?? 'none'))
        else reject(new Error(`${res.statusCode} with other bytes`))
      })
      res.on('error', reject)
    })
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} within 30000 ms`)))
    req.on('error', reject)
    req.end()
  })
}

/**
 * Reads `pages` (path and the exact bytes expected) from `origin` over `connections` kept-alive
 * connections for `seconds`, each connection asking the next page as soon as its answer is in.
 */
export async function measureThroughput(
  origin: string,
  pages: ReadonlyArray<{ readonly path: string; readonly body: Buffer }>,
  connections: number,
  seconds: number,
): Promise<Throughput> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections })
  const cacheStatus: Record<string, number> = {}
  const examples = new Set<string>()
  let requests = 0
  let failures = 0
  let bytes = 0
  let turn = 0
  const start = performance.now()
  const end = start + seconds * 1000
  const worker = async (): Promise<void> => {
    while (performance.now() < end) {
      const page = pages[turn++ % pages.length] as { path: string; body: Buffer }
      try {
        const status = await getMatching(`${origin}${page.path}`, page.body, agent)
        cacheStatus[status] = (cacheStatus[status] ?? 0) + 1
        bytes += page.body.length
      } catch (error) {
        failures++
        examples.add(`GET ${page.path}: ${error instanceof Error ? error.message : String(error)}`)
      }
      requests++
    }
  }
  await Promise.all(Array.from({ length: connections }, () => worker()))
  agent.destroy()
  const elapsed = (performance.now() - start) / 1000
  return {
    requests,
    failures,
    seconds: Math.round(elapsed * 100) / 100,
    perSecond: Math.round((requests - failures) / elapsed),
    megabytesPerSecond: Math.round(bytes / elapsed / 1e5) / 10,
    cacheStatus,
    examples: [...examples].slice(0, 3),
  }
}
