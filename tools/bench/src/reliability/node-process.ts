// Child process of the reliability figures: one weft server over a fresh development store, with or
// without the devnet producer; the bench reads its inserted blocks and memory, and feeds it blocks.

import { fill } from '@weft/devnet'
import { startServer } from '@weft/server'
import { openStore } from '@weft/store'
import { fail, send, serve } from '../child.js'
import { knownBlocks } from './known.js'

/** What the bench asks of the node process. */
export interface ReliabilityNodeConfig {
  readonly path: string
  /** Blocks written before the server starts, so that the reads have pages to read. */
  readonly prefill: number
  /** Seconds between blocks of a chain for the producer; absent: no producer. */
  readonly blockDelay?: number
  readonly concurrentReads: number
}

function rss(): { rss: number; heapUsed: number } {
  const usage = process.memoryUsage()
  return { rss: usage.rss, heapUsed: usage.heapUsed }
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '{}') as ReliabilityNodeConfig
  const filling = await openStore({ path: config.path, network: 'development' })
  await fill(filling, { blocks: config.prefill, forkRate: 0.05, seed: 'weft-reliability' })
  await filling.close()
  const server = await startServer({
    data: config.path,
    network: 'development',
    host: '127.0.0.1',
    port: 0,
    devnet: config.blockDelay !== undefined,
    ...(config.blockDelay === undefined ? {} : { blockDelay: config.blockDelay, forkRate: 0.05 }),
    concurrentReads: config.concurrentReads,
    // Small backlogs, as a node under stalled clients would want; no keep-alive comments to count.
    keepAlive: 0,
    logLevel: 'warn',
  })
  let inserted = 0
  server.store.subscribe((event) => {
    if (event.type === 'inserted') inserted++
  })
  send({ type: 'ready', url: server.url, known: await knownBlocks(server.store), ...rss() })
  serve(async (message) => {
    if (message.type === 'count') send({ type: 'count', inserted, at: performance.timeOrigin + performance.now(), ...rss() })
    else if (message.type === 'gc') {
      // Twice: the first collection leaves finalised buffers for the second.
      globalThis.gc?.()
      globalThis.gc?.()
      send({ type: 'gc', ...rss() })
    } else if (message.type === 'feed') {
      await fill(server.store, { blocks: Number(message.blocks), seed: `feed-${inserted}` })
      send({ type: 'fed' })
    } else if (message.type === 'close') {
      await server.close()
      send({ type: 'closed' })
      process.exit(0)
    }
  })
}

main().catch(fail)
