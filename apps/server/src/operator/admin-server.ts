import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { pipeline } from 'node:stream/promises'
import { type ChainStore, snapshotFileStream } from '@weft/store'
import type { Logger } from 'pino'

/** The admin listener: operations kept off the public address. */
export interface AdminServer {
  /** `http://host:port`. */
  readonly url: string
  close(): Promise<void>
}

// The height of the cut, for the snapshot's file name.
const cutHeight = (store: ChainStore): number => [...store.cut().values()].reduce((sum, head) => sum + head.height, 0)

// The path of a request target; undefined for one that is no URL.
function pathOf(target: string): string | undefined {
  try {
    return new URL(target, 'http://admin').pathname
  } catch {
    return undefined
  }
}

function answer(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain;charset=utf-8' }).end(`${text}\n`)
}

/**
 * Serves `GET /snapshot` on its own address (off unless `--admin-port` is given): a consistent
 * point-in-time snapshot of the store, streamed from a read snapshot while the node keeps serving
 * and taking blocks (the store's lock keeps any other process out of the folder). It has no other
 * route: the public address never offers it.
 */
export async function startAdminServer(store: ChainStore, host: string, port: number, log: Logger): Promise<AdminServer> {
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    // A target node's parser took but that is no URL (`//[/x`, `http://[/x`) throws here: it is the
    // client's mistake, and a throw in this handler would end the process.
    const path = pathOf(req.url ?? '/')
    if (path === undefined) {
      answer(res, 400, `Expected a request target that is a URL path, received ${JSON.stringify((req.url ?? '').slice(0, 100))}`)
      return
    }
    if (path !== '/snapshot') {
      answer(res, 404, `No resource at ${path}; the admin listener serves GET /snapshot`)
      return
    }
    if (req.method !== 'GET') {
      answer(res, 405, `Method ${req.method} is not allowed here; allowed: GET`)
      return
    }
    const started = performance.now()
    const name = `weft-${store.network.name}-${cutHeight(store)}.snapshot.gz`
    res.writeHead(200, { 'content-type': 'application/gzip', 'content-disposition': `attachment; filename="${name}"` })
    pipeline(snapshotFileStream(store.snapshot()), res).then(
      () => log.info({ file: name, seconds: (performance.now() - started) / 1000 }, 'snapshot sent'),
      (error: unknown) => log.warn({ err: error, file: name }, 'snapshot not sent whole: the client left or the store failed'),
    )
  }
  const server: Server = createServer(handle)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address()
  const bound = typeof address === 'object' && address !== null ? address.port : port
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${bound}`
  log.info({ url }, 'admin listener started')
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
