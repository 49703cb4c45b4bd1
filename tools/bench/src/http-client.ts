import { Agent, request } from 'node:http'
import { RequestFailedError } from './errors.js'

/** One client connection, kept alive between requests as a syncing client's would be. */
export const keepAliveAgent: Agent = new Agent({ keepAlive: true, maxSockets: 1 })

/** A response: status and the whole body. */
export interface Response {
  readonly status: number
  readonly body: Buffer
}

/** GET or POST (JSON body) on loopback; resolves with the whole body. */
export function fetchBytes(url: string, body?: unknown, agent: Agent = keepAliveAgent): Promise<Response> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body))
    const req = request(
      url,
      {
        agent,
        method: payload === undefined ? 'GET' : 'POST',
        headers: payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': payload.length },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }))
        res.on('error', reject)
      },
    )
    req.on('error', (error) => reject(new RequestFailedError(`${payload === undefined ? 'GET' : 'POST'} ${url} failed`, { cause: error })))
    req.end(payload)
  })
}

/** Like fetchBytes, but a status other than 200 is an error. */
export async function fetchOk(url: string, body?: unknown): Promise<Buffer> {
  const response = await fetchBytes(url, body)
  if (response.status !== 200) throw new RequestFailedError(`${url} answered ${response.status}: ${response.body.toString('utf8', 0, 300)}`)
  return response.body
}

/**
 * The `limit` and `next` of a page, read from its two ends: a syncing client needs only these to
 * continue, and parsing every block would measure the client's JSON parser, not the node.
 */
export function pageEnds(body: Buffer): { count: number; next: string | null } {
  const head = /^\{"limit":([0-9]+),/.exec(body.toString('latin1', 0, 24))
  const tail = body.toString('latin1', Math.max(0, body.length - 120))
  const nextAt = tail.lastIndexOf('"next":')
  if (head === null || nextAt < 0) throw new RequestFailedError(`Expected a page, received ${body.toString('utf8', 0, 200)}`)
  const next = JSON.parse(tail.slice(nextAt + 7, -1)) as string | null
  return { count: Number(head[1]), next }
}
