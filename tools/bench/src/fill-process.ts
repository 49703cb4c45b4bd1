// Child process: fills one store with devnet blocks and reports progress over IPC.

import { fill } from '@weft/devnet'
import { openStore } from '@weft/store'
import type { NetworkName } from '@weft/types'
import { ClassicLevel } from 'classic-level'
import { fail, send } from './child.js'

interface FillRequest {
  readonly path: string
  readonly network: NetworkName
  readonly blocks: number
  readonly seed: string
  readonly forkRate: number
}

async function main(): Promise<void> {
  const request = JSON.parse(process.argv[2] ?? '{}') as FillRequest
  const store = await openStore({ path: request.path, network: request.network })
  try {
    const summary = await fill(store, {
      blocks: request.blocks,
      seed: request.seed,
      forkRate: request.forkRate,
      onProgress: (done, total) => send({ type: 'progress', done, total }),
    })
    send({ type: 'filled', blocks: summary.blocks, orphans: summary.orphans })
  } finally {
    await store.close()
  }
  await compact(request.path)
  send({ type: 'compacted' })
  process.disconnect?.()
}

/**
 * Compacts the whole filled store, so that every run measures a store at rest: left as the fill
 * wrote it, the first process to open it compacted in the background while it was being measured,
 * and the first block-page segment (weft's) ran slower right after a fresh fill.
 */
async function compact(path: string): Promise<void> {
  const db = new ClassicLevel<Buffer, Buffer>(path, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  await db.open()
  try {
    // Every key of the store's layout starts with an ASCII letter: 0x00 to 0xff spans them all.
    await db.compactRange(Buffer.from([0x00]), Buffer.from([0xff]))
  } finally {
    await db.close()
  }
}

main().catch(fail)
