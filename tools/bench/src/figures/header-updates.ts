import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { type Child, type Message, startChild } from '../child.js'
import { quantile } from '../figure.js'
import { fetchOk } from '../http-client.js'
import { wallNow } from '../timestamped-store.js'

/** Settings of the event-stream test. */
export interface HeaderUpdatesOptions {
  readonly subscribers: number
  /** Producer's seconds between blocks of one chain (20 chains: 1 s gives about 20 blocks a second). */
  readonly blockDelay: number
  readonly seconds: number
  readonly warmupSeconds: number
}

/** What one run (weft or floor) measured. */
export interface HeaderUpdatesRun {
  /** Latencies (ms) from the insert call to the last subscriber's receipt, one per block. */
  readonly latencies: number[]
  /**
   * Milliseconds from the insert call until the node had handed the frame over, one per block:
   * stamped by a store listener registered after the node's own, which writes synchronously to every
   * socket (the floor), or to the first step of a sweep (weft: every socket up to 1,024 clients).
   */
  readonly handedOver: number[]
  /** How late the node's event loop ran during the window (ms): what a request or an insert waits. */
  readonly loopDelay: LoopDelay
  /** Milliseconds from the first subscriber's receipt to the last one's, one per block. */
  readonly spreads: number[]
  readonly blocksPerSecond: number
  /** Blocks of the window that some subscriber never received. */
  readonly incomplete: number
  readonly rssBefore: number
  readonly rssAfter: number
  readonly heapBefore: number
  readonly heapAfter: number
  readonly connected: number
  /**
   * The node's own count (weft only, from its /metrics histogram `weft_event_stream_delivery_seconds`)
   * over the window: announcements written to every socket, and how many of them within 100 ms.
   */
  readonly writtenToAll?: { readonly announcements: number; readonly within100ms: number }
}

/** Event-loop delay of a node process over a window, ms. */
export interface LoopDelay {
  readonly p50: number
  readonly p99: number
  readonly max: number
}

type Stamps = Message & { called: Array<[string, number]>; announced: Array<[string, number]> }
type Report = Message & { receipts: Array<[string, number, number, number]> }
type Memory = Message & { rss: number; heapUsed: number; clients: number }

/** A node under test: a fresh development store in a node process of one kind, and its URL. */
interface NodeUnderTest {
  readonly node: Child
  readonly url: string
  /** Starts `count` event-stream subscribers of the node's `/header/updates` in a second process. */
  subscribe(count: number): Child
}

// Runs `use` on a fresh node of `kind`; every child is ended and the store removed after.
async function withNode<T>(kind: 'weft' | 'floor', use: (under: NodeUnderTest) => Promise<T>): Promise<T> {
  const folder = mkdtempSync(join(tmpdir(), 'weft-bench-updates-'))
  const children: Child[] = []
  try {
    const node = startChild('node-process.js', [JSON.stringify({ kind, path: folder, network: 'development' })], ['--expose-gc'])
    children.push(node)
    const { url } = await node.next<Message & { url: string }>('ready')
    const subscribe = (count: number): Child => {
      const child = startChild('subscriber-process.js', [`${url}/chain/0.0/development/header/updates`, String(count)])
      children.push(child)
      return child
    }
    return await use({ node, url, subscribe })
  } finally {
    for (const child of children) child.kill()
    rmSync(folder, { recursive: true, force: true })
  }
}

/**
 * One run: a fresh development store in a node process of that kind with a producer on all 20
 * chains, `subscribers` event streams in a second process, and the latency of every block inserted
 * during the measured window.
 */
export function headerUpdatesRun(kind: 'weft' | 'floor', options: HeaderUpdatesOptions): Promise<HeaderUpdatesRun> {
  return withNode(kind, async ({ node, url, subscribe }) => {
    await node.ask({ type: 'produce', blockDelay: options.blockDelay, forkRate: 0, seed: 'weft-bench-updates' }, 'producing')
    await sleep(options.warmupSeconds * 1000)
    const before = await node.ask<Memory>({ type: 'memory' }, 'memory')
    const subscribers = subscribe(options.subscribers)
    await subscribers.next('connected')
    await node.ask({ type: 'loop-reset' }, 'loop-reset')
    const deliveredBefore = kind === 'weft' ? await deliveryCounts(url) : undefined
    const windowStart = wallNow()
    await sleep(options.seconds * 1000)
    const windowEnd = wallNow()
    const deliveredAfter = kind === 'weft' ? await deliveryCounts(url) : undefined
    const { p50, p99, max } = await node.ask<Message & LoopDelay>({ type: 'loop' }, 'loop')
    // Blocks inserted at the very end of the window get a moment to arrive.
    await sleep(500)
    const after = await node.ask<Memory>({ type: 'memory' }, 'memory')
    const stamps = await node.ask<Stamps>({ type: 'inserts' }, 'inserts')
    const report = await subscribers.ask<Report>({ type: 'report' }, 'report')
    await subscribers.ask({ type: 'close' }, 'closed')
    await node.ask({ type: 'close' }, 'closed')
    await Promise.all([subscribers.exited, node.exited])
    const receipts = new Map(report.receipts.map(([hash, count, first, last]) => [hash, { count, first, last }]))
    const announced = new Map(stamps.announced)
    const latencies: number[] = []
    const handedOver: number[] = []
    const spreads: number[] = []
    let incomplete = 0
    let inWindow = 0
    for (const [hash, called] of stamps.called) {
      if (called < windowStart || called > windowEnd) continue
      inWindow += 1
      const receipt = receipts.get(hash)
      if (receipt === undefined || receipt.count < options.subscribers) {
        incomplete += 1
        continue
      }
      latencies.push(receipt.last - called)
      spreads.push(receipt.last - receipt.first)
      const at = announced.get(hash)
      if (at !== undefined) handedOver.push(at - called)
    }
    return {
      latencies,
      handedOver,
      loopDelay: { p50, p99, max },
      spreads,
      blocksPerSecond: inWindow / ((windowEnd - windowStart) / 1000),
      incomplete,
      rssBefore: before.rss,
      rssAfter: after.rss,
      heapBefore: before.heapUsed,
      heapAfter: after.heapUsed,
      connected: after.clients,
      ...(deliveredBefore === undefined || deliveredAfter === undefined
        ? {}
        : {
            writtenToAll: {
              announcements: deliveredAfter.all - deliveredBefore.all,
              within100ms: deliveredAfter.within100ms - deliveredBefore.within100ms,
            },
          }),
    }
  })
}

// The header stream's delivery histogram of a weft node's /metrics: every announcement written to
// every socket, and those written within 100 ms (cumulative buckets).
async function deliveryCounts(url: string): Promise<{ all: number; within100ms: number }> {
  const text = (await fetchOk(`${new URL(url).origin}/metrics`)).toString()
  const bucket = (le: string): number => {
    const line = text
      .split('\n')
      .find(
        (candidate) =>
          candidate.startsWith('weft_event_stream_delivery_seconds_bucket{') &&
          candidate.includes(`le="${le}"`) &&
          candidate.includes('stream="header"'),
      )
    // prom-client writes a labelled histogram's lines once it has observed something: none yet is 0.
    if (line === undefined) {
      if (text.includes('# TYPE weft_event_stream_delivery_seconds histogram')) return 0
      throw new Error("Expected the node's /metrics to have the event streams' delivery histogram")
    }
    return Number(line.slice(line.lastIndexOf(' ') + 1))
  }
  return { all: bucket('+Inf'), within100ms: bucket('0.1') }
}

/** p99 of a run's latencies, ms; a block some subscriber never received counts as infinitely late. */
export function p99(run: HeaderUpdatesRun): number {
  return quantile([...run.latencies, ...Array<number>(run.incomplete).fill(Number.POSITIVE_INFINITY)], 0.99)
}

/** Bytes of resident memory per connected subscriber. */
export function rssPerSubscriber(run: HeaderUpdatesRun, subscribers: number): number {
  return (run.rssAfter - run.rssBefore) / subscribers
}

/** What a window of blocks inserted at once costs the event streams. */
export interface HeaderBurstRun {
  readonly blocks: number
  /** Milliseconds from the insert call until every subscriber had every block of the window. */
  readonly allDelivered: number
  /** Milliseconds from the insert call until the node had handed the last block to every socket. */
  readonly handedOver: number
  readonly incomplete: number
}

/**
 * A fresh development store in a node process of that kind (no producer), `subscribers` event
 * streams in a second process, then `blocks` devnet blocks inserted in one call (a window copied by
 * ingest, a reorg): how long until every subscriber has all of them.
 */
export function headerBurstRun(kind: 'weft' | 'floor', subscribers: number, blocks: number): Promise<HeaderBurstRun> {
  return withNode(kind, async ({ node, subscribe }) => {
    const streams = subscribe(subscribers)
    await streams.next('connected')
    await sleep(1000)
    await node.ask({ type: 'burst', blocks, seed: 'weft-bench-burst' }, 'burst')
    const stamps = await node.ask<Stamps>({ type: 'inserts' }, 'inserts')
    // Every block of the window at every subscriber, or a minute at most.
    const deadline = Date.now() + 60_000
    let report = await streams.ask<Report>({ type: 'report' }, 'report')
    const complete = (r: Report): boolean => r.receipts.filter(([, count]) => count === subscribers).length >= stamps.called.length
    while (!complete(report) && Date.now() < deadline) {
      await sleep(50)
      report = await streams.ask<Report>({ type: 'report' }, 'report')
    }
    await streams.ask({ type: 'close' }, 'closed')
    await node.ask({ type: 'close' }, 'closed')
    await Promise.all([streams.exited, node.exited])
    const receipts = new Map(report.receipts.map(([hash, count, , last]) => [hash, { count, last }]))
    const started = Math.min(...stamps.called.map(([, called]) => called))
    let last = started
    let incomplete = 0
    for (const [hash] of stamps.called) {
      const receipt = receipts.get(hash)
      if (receipt === undefined || receipt.count < subscribers) incomplete += 1
      else last = Math.max(last, receipt.last)
    }
    const handed = Math.max(...stamps.announced.map(([, at]) => at))
    return {
      blocks: stamps.called.length,
      allDelivered: incomplete > 0 ? Number.POSITIVE_INFINITY : last - started,
      handedOver: handed - started,
      incomplete,
    }
  })
}
