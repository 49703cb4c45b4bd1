import { setTimeout as sleep } from 'node:timers/promises'
import { type Child, type Message, startChild } from '../child.js'
import type { KnownBlocks } from './known.js'
import { type LoadRun, mixedReads, readLoad } from './load.js'
import type { ReliabilityNodeConfig } from './node-process.js'
import { startReliabilityNode, stopReliabilityNode } from './rounds.js'

type Status = Message & { inserted: number; phase: string; at: number }

/** A follower's copy rate with no reads, then under `connections` of reads, in alternating windows. */
export interface IngestShare {
  readonly idle: number[]
  readonly loaded: number[]
  readonly loads: LoadRun[]
  /** Blocks the upstream held. */
  readonly upstreamBlocks: number
  /** Whether the copy ended before the windows did (the last window was left out). */
  readonly copyEnded: boolean
}

async function stopFollower(child: Child): Promise<void> {
  try {
    await child.ask({ type: 'close' }, 'closed')
    await child.exited
  } finally {
    child.kill()
  }
}

/**
 * A weft follower (`--upstream`, its own process, a fresh store) copying a development node of
 * `upstream.prefill` blocks (no producer), measured in `pairs` of an idle window and one under
 * `connections` of mixed reads of what it has copied. Rates are blocks written per second; a
 * window in which the copy ended is left out.
 */
export async function ingestShare(
  upstream: ReliabilityNodeConfig,
  options: { pairs: number; seconds: number; connections: number },
): Promise<IngestShare> {
  const { child: node, ready } = await startReliabilityNode(upstream)
  const share = { idle: [] as number[], loaded: [] as number[], loads: [] as LoadRun[], upstreamBlocks: upstream.prefill, copyEnded: false }
  try {
    const follower = startChild('follower-process.js', [JSON.stringify({ upstream: ready.url, network: 'development' })])
    try {
      const { url } = await follower.next<Message & { url: string }>('ready')
      const status = (): Promise<Status> => follower.ask<Status>({ type: 'status' }, 'status')
      // Discovery and the first windows of pages, so that the reads have blocks to ask for.
      await sleep(1500)
      const { known } = await follower.ask<Message & { known: KnownBlocks }>({ type: 'known' }, 'known')
      const requests = mixedReads(known)
      // The rate over a window, or undefined when the copy ended within it.
      const windowRate = async (during: () => Promise<unknown>): Promise<number | undefined> => {
        const from = await status()
        await during()
        const to = await status()
        if (to.phase !== 'copying') return undefined
        return ((to.inserted - from.inserted) * 1000) / (to.at - from.at)
      }
      for (let pair = 0; pair < options.pairs && !share.copyEnded; pair++) {
        const idle = await windowRate(() => sleep(options.seconds * 1000))
        if (idle === undefined) share.copyEnded = true
        else share.idle.push(idle)
        if (share.copyEnded) break
        let load: LoadRun | undefined
        const loaded = await windowRate(async () => {
          load = await readLoad(url, requests, options.connections, options.seconds)
        })
        if (load !== undefined) share.loads.push(load)
        if (loaded === undefined) share.copyEnded = true
        else share.loaded.push(loaded)
        await sleep(500)
      }
    } finally {
      await stopFollower(follower)
    }
  } finally {
    await stopReliabilityNode(node)
  }
  return share
}
