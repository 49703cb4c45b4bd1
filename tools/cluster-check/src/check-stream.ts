import { chainPaths, parseEventStream } from '@weft/api'
import { base, type Cluster } from './cluster.js'
import { ClusterCheckError } from './errors.js'
import { readStats, statRow } from './haproxy.js'
import { open } from './http.js'
import type { Outcome } from './report.js'

/** Opens `url` as an event stream; resolves with its content type and the first event's name once one arrives (comments, keep-alives, are no events). */
async function firstEvent(url: string, timeout: number): Promise<{ contentType: string; event: string; ms: number }> {
  const start = performance.now()
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(new Error(`no event within ${timeout} ms`)), timeout)
  try {
    const stream = await open({ url, accept: 'text/event-stream', signal: controller.signal })
    for await (const { event } of parseEventStream(stream.body ?? emptyStream())) {
      return { contentType: String(stream.header('content-type')), event, ms: Math.round(performance.now() - start) }
    }
    throw new ClusterCheckError('CLUSTER_BAD_ANSWER', `Expected an event from ${url}, the stream ended without one`)
  } finally {
    clearTimeout(timer)
    controller.abort()
  }
}

async function* emptyStream(): AsyncGenerator<Uint8Array> {}

/** (e) An event stream through HAProxy goes to the streams backend and delivers events. */
export async function checkStream(cluster: Cluster, timeout: number): Promise<Outcome> {
  const sessions = async (): Promise<number> => Number(statRow(await readStats(cluster.stats), 'weft_streams', 'BACKEND').stot ?? 0)
  const before = await sessions()
  const { contentType, event, ms } = await firstEvent(`${cluster.lb}${chainPaths.headerUpdates(base)}`, timeout)
  const through = (await sessions()) - before
  const figures = { contentType, event, firstEventMs: ms, streamSessions: through }
  const pass = contentType.startsWith('text/event-stream') && through >= 1
  return {
    pass,
    detail: `GET ${base}/header/updates through HAProxy: ${contentType}, first event "${event}" after ${ms} ms, served by the streams backend (${through} session)`,
    figures,
  }
}
