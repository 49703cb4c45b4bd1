import { setTimeout as sleep } from 'node:timers/promises'
import { type Child, type Message, startChild } from '../child.js'
import type { KnownBlocks } from './known.js'
import { type LoadRun, mixedReads, readLoad, stalledClients } from './load.js'
import type { ReliabilityNodeConfig } from './node-process.js'

type Ready = Message & { url: string; known: KnownBlocks; rss: number }
type Count = Message & { inserted: number; at: number; rss: number; heapUsed: number }

/** Starts the reliability node process (run with --expose-gc, so that the bench can ask for a collection). */
export async function startReliabilityNode(config: ReliabilityNodeConfig): Promise<{ child: Child; ready: Ready }> {
  const child = startChild('reliability/node-process.js', [JSON.stringify(config)], ['--expose-gc'])
  return { child, ready: await child.next<Ready>('ready') }
}

/** Closes the node process, killing it if it does not close. */
export async function stopReliabilityNode(child: Child): Promise<void> {
  try {
    await child.ask({ type: 'close' }, 'closed')
    await child.exited
  } finally {
    child.kill()
  }
}

const count = (child: Child): Promise<Count> => child.ask<Count>({ type: 'count' }, 'count')

/** The producer's blocks per second with no reads, then under `connections` of reads, in alternating windows. */
export interface ProducerShare {
  readonly idle: number[]
  readonly loaded: number[]
  readonly loads: LoadRun[]
}

/** Measures the producer's share: `pairs` of an idle window and a loaded one, `seconds` each. */
export async function producerShare(
  config: ReliabilityNodeConfig,
  options: { pairs: number; seconds: number; connections: number },
): Promise<ProducerShare> {
  const { child, ready } = await startReliabilityNode(config)
  const requests = mixedReads(ready.known)
  const share: ProducerShare = { idle: [], loaded: [], loads: [] }
  const rate = (from: Count, to: Count): number => ((to.inserted - from.inserted) * 1000) / (to.at - from.at)
  try {
    await sleep(2000)
    for (let pair = 0; pair < options.pairs; pair++) {
      const idleFrom = await count(child)
      await sleep(options.seconds * 1000)
      share.idle.push(rate(idleFrom, await count(child)))
      const loadFrom = await count(child)
      share.loads.push(await readLoad(ready.url, requests, options.connections, options.seconds))
      share.loaded.push(rate(loadFrom, await count(child)))
      // The node finishes what the load left running before the next idle window.
      await sleep(500)
    }
  } finally {
    await stopReliabilityNode(child)
  }
  return share
}

/** The node's memory over rounds of load and stalled clients. */
export interface MemoryRounds {
  /** RSS when the node was ready, fresh. */
  readonly fresh: number
  /** RSS after a warm-up round (the code compiled, the caches filled), the start of the rounds. */
  readonly start: number
  /** RSS after each round, its stalled clients gone and the node idle for `settleSeconds`. */
  readonly settled: number[]
  /** The same, after a forced collection. */
  readonly collected: number[]
  /** RSS while the round ran, at its end. */
  readonly peak: number[]
  /** The JavaScript heap in use after each round's collection. */
  readonly heap: number[]
  readonly loads: LoadRun[]
}

/**
 * Rounds of `connections` clients of mixed reads for `seconds`, with stalled clients (50 block
 * streams, 50 header streams, 20 unread pages) and, with `feedBlocks`, blocks written meanwhile; after
 * each, the stalled clients leave and the node idles for `settleSeconds` before its RSS is read.
 */
export async function memoryRounds(
  config: ReliabilityNodeConfig,
  options: { rounds: number; seconds: number; settleSeconds: number; connections: number; feedBlocks: number },
): Promise<MemoryRounds> {
  const { child, ready } = await startReliabilityNode(config)
  const requests = mixedReads(ready.known)
  const port = Number(new URL(ready.url).port)
  const result = {
    fresh: ready.rss,
    start: 0,
    settled: [] as number[],
    collected: [] as number[],
    peak: [] as number[],
    heap: [] as number[],
    loads: [] as LoadRun[],
  }
  const settle = async (): Promise<{ settled: number; collected: number; heap: number }> => {
    await sleep(options.settleSeconds * 1000)
    const settled = (await count(child)).rss
    const collected = await child.ask<Count>({ type: 'gc' }, 'gc')
    return { settled, collected: collected.rss, heap: collected.heapUsed }
  }
  try {
    await readLoad(ready.url, requests, 8, 2)
    result.start = (await settle()).settled
    for (let round = 0; round < options.rounds; round++) {
      const stalled = await stalledClients(port, { blockStreams: 50, headerStreams: 50, pages: 20 })
      const load = readLoad(ready.url, requests, options.connections, options.seconds)
      // Blocks for the streams while the load runs: the stalled ones fall behind and are cut.
      for (let feed = 0; feed < 3 && options.feedBlocks > 0; feed++) {
        await child.ask({ type: 'feed', blocks: options.feedBlocks }, 'fed')
        await sleep((options.seconds * 1000) / 4)
      }
      result.loads.push(await load)
      result.peak.push((await count(child)).rss)
      for (const socket of stalled) socket.destroy()
      const { settled, collected, heap } = await settle()
      result.settled.push(settled)
      result.collected.push(collected)
      result.heap.push(heap)
      const MiB = (bytes: number): string => (bytes / 2 ** 20).toFixed(0)
      process.stderr.write(
        `bench:reliability: round ${round + 1}: RSS ${MiB(settled)} MiB settled, ${MiB(collected)} MiB collected, heap ${MiB(heap)} MiB\n`,
      )
    }
  } finally {
    await stopReliabilityNode(child)
  }
  return result
}
