// Child process: a weft server following an upstream (`--upstream`) into a fresh store; the bench
// reads its ingest figures, stops its ingest, and measures the store's validated insert rate on
// the blocks it copied (the floor of the backfill figure) in the same process.

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '@weft/server'
import { openStore } from '@weft/store'
import type { NetworkName } from '@weft/types'
import { fail, send, serve } from './child.js'
import { sampleBlocks } from './figures/inserts.js'
import { knownBlocks } from './reliability/known.js'

/** What the bench asks of a follower process. */
export interface FollowerProcessConfig {
  readonly upstream: string
  readonly network: NetworkName
}

// Blocks per insertMany call of the floor, as the bench's validated-inserts figure hands them over.
const floorCall = 1000

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '{}') as FollowerProcessConfig
  const folder = mkdtempSync(join(tmpdir(), 'weft-bench-follower-'))
  const server = await startServer({
    data: join(folder, 'store'),
    network: config.network,
    upstream: [config.upstream],
    host: '127.0.0.1',
    port: 0,
    logLevel: 'warn',
  })
  const ingest = server.ingest!
  serve(async (message) => {
    switch (message.type) {
      case 'status': {
        const status = ingest.status()
        send({ type: 'status', inserted: status.inserted, phase: status.phase, retries: status.retries, at: performance.now() })
        break
      }
      case 'known':
        // What the reliability bench's read load may ask for: the blocks copied so far.
        send({ type: 'known', known: await knownBlocks(server.store) })
        break
      case 'stop-ingest':
        await ingest.stop()
        send({ type: 'ingest-stopped' })
        break
      case 'insert-floor': {
        // The blocks the follower copied, up to the height its cut reached on every chain, parent
        // first, into a fresh store by insertMany calls: the same blocks without HTTP and pages.
        const heights = Math.min(...[...server.store.cut().values()].map((head) => head.height))
        const blocks = await sampleBlocks(server.store, heights)
        const store = await openStore({ path: join(folder, 'floor'), network: config.network })
        const started = performance.now()
        for (let at = 0; at < blocks.length; at += floorCall) await store.insertMany(blocks.slice(at, at + floorCall))
        const seconds = (performance.now() - started) / 1000
        await store.close()
        send({ type: 'insert-floor', blocks: blocks.length, seconds })
        break
      }
      case 'close':
        await server.close()
        rmSync(folder, { recursive: true, force: true })
        send({ type: 'closed' })
        process.disconnect?.()
        break
    }
  })
  send({ type: 'ready', url: server.url })
}

main().catch(fail)
