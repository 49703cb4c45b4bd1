// Child process: fills one store with devnet blocks and reports progress over IPC.
import { openStore } from '@weft/store'
import { fill } from '@weft/devnet'
import type { NetworkName } from '@weft/types'
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
  process.disconnect?.()
}

main().catch(fail)
