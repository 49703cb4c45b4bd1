// Which transport should ingest use for large pages: `fetch` (undici) or `node:http` with a
// keep-alive agent? Both read the same ~700 KB JSON body (a page of 360 full blocks is about that
// size) from a bare node:http server on 127.0.0.1, one request at a time and four at once, in
// alternating rounds. Printed: requests per second and the client's CPU time per request.

import { Agent, createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'

const itemBytes = 2_000
const items = 360
const rounds = 5
const requestsPerRound = 150

const body = Buffer.from(
  JSON.stringify({
    limit: items,
    items: Array.from({ length: items }, (_, i) => ({ header: { height: i }, payload: 'x'.repeat(itemBytes) })),
    next: null,
  }),
)

const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json;charset=utf-8', 'content-length': body.length })
  res.end(body)
})
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/page`
const agent = new Agent({ keepAlive: true, maxSockets: 8 })

function viaNodeHttp(): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { accept: 'application/json' } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8').length))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

async function viaFetch(): Promise<number> {
  const response = await fetch(url, { headers: { accept: 'application/json' } })
  return (await response.text()).length
}

async function run(get: () => Promise<number>, concurrency: number): Promise<{ seconds: number; cpuMs: number }> {
  const cpu = process.cpuUsage()
  const start = performance.now()
  let next = 0
  const worker = async (): Promise<void> => {
    while (next++ < requestsPerRound) await get()
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  const used = process.cpuUsage(cpu)
  return { seconds: (performance.now() - start) / 1000, cpuMs: (used.user + used.system) / 1000 }
}

for (const concurrency of [1, 4]) {
  const totals = { fetch: { seconds: 0, cpuMs: 0 }, http: { seconds: 0, cpuMs: 0 } }
  // A warm-up round each, then alternating rounds so that drift in the machine's speed hits both.
  await run(viaFetch, concurrency)
  await run(viaNodeHttp, concurrency)
  for (let round = 0; round < rounds; round++) {
    for (const [name, get] of [
      ['fetch', viaFetch],
      ['http', viaNodeHttp],
    ] as const) {
      const measured = await run(get, concurrency)
      totals[name].seconds += measured.seconds
      totals[name].cpuMs += measured.cpuMs
    }
  }
  const count = rounds * requestsPerRound
  for (const [name, total] of Object.entries(totals)) {
    process.stdout.write(
      `${name.padEnd(6)} concurrency ${concurrency}: ${(count / total.seconds).toFixed(0)} requests/s, ` +
        `${(total.cpuMs / count).toFixed(3)} ms of this process's CPU per request (${(body.length / 1024).toFixed(0)} KB bodies)\n`,
    )
  }
}
agent.destroy()
server.close()
