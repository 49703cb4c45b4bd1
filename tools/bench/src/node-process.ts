// Child process: one node under test, either the weft server or the bare floor server, on one
// store; the bench drives it over IPC (start a producer, read its memory and insert times, close).

import { monitorEventLoopDelay } from 'node:perf_hooks'
import { createProducer, fill, type Producer } from '@weft/devnet'
import { encodeHash } from '@weft/hash-text'
import { startServer } from '@weft/server'
import { type ChainStore, openStore } from '@weft/store'
import type { NetworkName } from '@weft/types'
import { fail, send, serve } from './child.js'
import { syncInProcess } from './figures/sync.js'
import { createFloorServer } from './floor-server.js'
import { listen } from './listen.js'
import { timestampedStore, wallNow } from './timestamped-store.js'

/** What the bench asks of a node process. */
export interface NodeProcessConfig {
  readonly kind: 'weft' | 'floor'
  readonly path: string
  readonly network: NetworkName
  /** With kind weft: also serve the floor from the same process and the same opened store. */
  readonly withFloor?: boolean
}

const loopResolutionMs = 10

async function startFloor(store: ChainStore): Promise<{ url: string; clients: () => number; close: () => Promise<void> }> {
  const floor = createFloorServer(store)
  const port = await listen(floor.server)
  return {
    url: `http://127.0.0.1:${port}`,
    clients: () => floor.subscribers.size,
    close: async () => {
      for (const res of floor.subscribers) res.end()
      floor.stopFeed()
      floor.server.closeAllConnections()
      await new Promise<void>((resolve) => floor.server.close(() => resolve()))
    },
  }
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '{}') as NodeProcessConfig
  let store: ChainStore
  let url: string
  let floorUrl: string | undefined
  let clients: () => number
  let close: () => Promise<void>
  if (config.kind === 'weft') {
    // Request logging off (warn): a log line per request would measure the log sink, not the node.
    const server = await startServer({
      data: config.path,
      network: config.network,
      host: '127.0.0.1',
      port: 0,
      devnet: false,
      logLevel: 'warn',
      // Every bench client comes from 127.0.0.1: bench:scale's 10,000 subscribers are one address,
      // past the per-client default (2,048 streams) meant for one honest host.
      maxConnections: 50_000,
      maxStreamsPerClient: 50_000,
      // 10,000 streams opening at once wait their turn to be accepted and parsed: node's own defaults
      // (60 s, 120 s) rather than the node's 10 s and 30 s, which are for hostile clients.
      headersTimeout: 60,
      requestTimeout: 120,
    })
    store = server.store
    url = server.url
    clients = () => server.eventClients().header
    const floor = config.withFloor === true ? await startFloor(store) : undefined
    floorUrl = floor?.url
    close = async () => {
      await floor?.close()
      await server.close()
    }
  } else {
    const opened = await openStore({ path: config.path, network: config.network })
    store = opened
    const floor = await startFloor(opened)
    url = floor.url
    clients = floor.clients
    close = async () => {
      await floor.close()
      await opened.close()
    }
  }
  const stamped = timestampedStore(store)
  // Also when each block was handed over: this listener runs after the node's own, which writes the
  // frame at once (the floor) or when the store's announcing job ends (weft's hub, in a microtask:
  // to every client, or to the first step of them when there are more than one step's worth), so a
  // microtask queued here runs after those writes.
  const announced = new Map<string, number>()
  store.subscribe((event) => {
    if (event.type === 'inserted') {
      const hash = encodeHash(event.header.hash)
      queueMicrotask(() => announced.set(hash, wallNow()))
    }
  })
  // How late the process's event loop runs: a request, a timer or an insert's next step waits that
  // long. The histogram holds the intervals of a 10 ms timer; the delay is what passes the 10 ms.
  const loopDelay = monitorEventLoopDelay({ resolution: loopResolutionMs })
  loopDelay.enable()
  const lateness = (nanoseconds: number) => Math.max(0, nanoseconds / 1e6 - loopResolutionMs)
  let producer: Producer | undefined
  serve(async (message) => {
    switch (message.type) {
      case 'loop-reset':
        loopDelay.reset()
        send({ type: 'loop-reset' })
        break
      case 'loop':
        send({
          type: 'loop',
          p50: lateness(loopDelay.percentile(50)),
          p99: lateness(loopDelay.percentile(99)),
          max: lateness(loopDelay.max),
        })
        break
      case 'produce':
        producer = createProducer(stamped.store, {
          blockDelay: Number(message.blockDelay),
          forkRate: Number(message.forkRate),
          seed: String(message.seed),
          onError: fail,
        })
        producer.start()
        send({ type: 'producing' })
        break
      case 'burst': {
        // A window of blocks inserted at once (one insertMany call, as ingest writes a copied window).
        const summary = await fill(stamped.store, { blocks: Number(message.blocks), seed: String(message.seed) })
        send({ type: 'burst', blocks: summary.blocks })
        break
      }
      case 'memory': {
        globalThis.gc?.()
        const usage = process.memoryUsage()
        send({ type: 'memory', rss: usage.rss, heapUsed: usage.heapUsed, clients: clients() })
        break
      }
      case 'sync-floor': {
        const result = await syncInProcess(store, message.chains as number[], Number(message.limit))
        send({ type: 'sync-floor', ...result })
        break
      }
      case 'inserts':
        send({ type: 'inserts', called: [...stamped.times], announced: [...announced] })
        break
      case 'close':
        await producer?.stop()
        await close()
        send({ type: 'closed' })
        process.disconnect?.()
        break
    }
  })
  send({ type: 'ready', url, ...(floorUrl === undefined ? {} : { floorUrl }) })
}

main().catch(fail)
