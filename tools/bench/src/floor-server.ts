import { createServer, type Server, type ServerResponse } from 'node:http'
import { powHashHex, targetHex } from '@weft/block'
import { encodeHash } from '@weft/hash-text'
import type { ChainStore, RangeItem } from '@weft/store'

const pageClose = Buffer.from(']')
const comma = Buffer.from(',')
const blockPath = /^\/chain\/0\.0\/([a-z0-9-]+)\/chain\/([0-9]+)\/block$/

/**
 * The floor: the least work that answers the same requests with the same bytes. GET block pages
 * (limit and minheight only, spec profile) read the same classic-level store through the same
 * `range` + `readRangeBlocks`, and the header event stream fans the same frames out, each framed
 * as a chunk once and written straight to every socket (the cheapest fan-out node:http allows; the
 * bench's subscribers speak HTTP/1.1, so every stream is chunked): no router, no parameter checks,
 * no common headers, no backlog bound, no keep-alive timers.
 */
export function createFloorServer(store: ChainStore): { server: Server; subscribers: Set<ServerResponse>; stopFeed(): void } {
  const subscribers = new Set<ServerResponse>()
  const stopFeed = store.subscribe((event) => {
    if (event.type !== 'inserted' || subscribers.size === 0) return
    const { header } = event
    const frame = Buffer.concat([
      Buffer.from('event:BlockHeader\ndata:{"header":'),
      event.headerJson,
      Buffer.from(`,"powHash":"${powHashHex(header)}","target":"${targetHex(header.target)}","txCount":${event.txCount}}\n\n`),
    ])
    const chunk = Buffer.concat([Buffer.from(`${frame.length.toString(16)}\r\n`), frame, Buffer.from('\r\n')])
    for (const res of subscribers) res.socket?.write(chunk)
  })
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://floor')
    if (url.pathname === `/chain/0.0/${store.network.name}/header/updates`) {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.flushHeaders()
      subscribers.add(res)
      res.once('close', () => subscribers.delete(res))
      return
    }
    const match = blockPath.exec(url.pathname)
    if (match === null) {
      res.writeHead(404).end()
      return
    }
    const chain = Number(match[2])
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 360), 360)
    const minheight = Number(url.searchParams.get('minheight') ?? 0)
    readPage(store, chain, minheight, limit).then(
      (body) => {
        res.writeHead(200, { 'content-type': 'application/json;charset=utf-8', 'content-length': body.length })
        res.end(body)
      },
      (error: unknown) => {
        res.writeHead(500).end(String(error))
      },
    )
  })
  return { server, subscribers, stopFeed }
}

// One more item than the limit tells whether there is a next page, as the cursor library does.
async function readPage(store: ChainStore, chain: number, minheight: number, limit: number): Promise<Buffer> {
  const items: RangeItem[] = []
  for await (const item of store.range({ chain, minheight })) {
    items.push(item)
    if (items.length > limit) break
  }
  const extra = items.length > limit ? items.pop() : undefined
  const blocks = await store.readRangeBlocks(items)
  const parts: Buffer[] = [Buffer.from(`{"limit":${blocks.length},"items":[`)]
  blocks.forEach((block, index) => {
    if (index > 0) parts.push(comma)
    parts.push(block)
  })
  const next = extra === undefined ? null : `inclusive:${encodeHash(extra.hash)}`
  parts.push(pageClose, Buffer.from(`,"next":${JSON.stringify(next)}}`))
  return Buffer.concat(parts)
}
