import { request } from 'node:http'
import { base, type Cluster } from './cluster.js'
import { readStats, statRow } from './haproxy.js'
import type { Outcome } from './report.js'

/** Opens `url` as an event stream; resolves with its content type and the first event's name once one arrives. */
function firstEvent(url: string, timeout: number): Promise<{ contentType: string; event: string; ms: number }> {
  const start = performance.now()
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: 'text/event-stream' } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        text += chunk
        // An event is complete at its blank line; comments (keep-alives) carry no `event:` field.
        const end = text.indexOf('\n\n')
        const match = /^event: *(.+)$/m.exec(text.slice(0, Math.max(end, 0)))
        if (end >= 0 && match !== null) {
          resolve({ contentType: String(res.headers['content-type']), event: match[1] ?? '', ms: Math.round(performance.now() - start) })
          req.destroy()
        } else if (end >= 0) {
          text = text.slice(end + 2)
        }
      })
      res.on('error', reject)
    })
    req.setTimeout(timeout, () => req.destroy(new Error(`no event within ${timeout} ms`)))
    req.on('error', reject)
    req.end()
  })
}

/** (e) An event stream through HAProxy goes to the streams backend and delivers events. */
export async function checkStream(cluster: Cluster, timeout: number): Promise<Outcome> {
  const sessions = async (): Promise<number> => Number(statRow(await readStats(cluster.stats), 'weft_streams', 'BACKEND').stot ?? 0)
  const before = await sessions()
  const { contentType, event, ms } = await firstEvent(`${cluster.lb}${base}/header/updates`, timeout)
  const through = (await sessions()) - before
  const figures = { contentType, event, firstEventMs: ms, streamSessions: through }
  const pass = contentType.startsWith('text/event-stream') && through >= 1
  return {
    pass,
    detail: `GET ${base}/header/updates through HAProxy: ${contentType}, first event "${event}" after ${ms} ms, served by the streams backend (${through} session)`,
    figures,
  }
}
