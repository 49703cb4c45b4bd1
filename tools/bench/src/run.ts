// `pnpm bench`: fills the bench stores once, measures every figure of issue 9 against its floor in
// the same run, prints a table and writes bench-results.json at the repository root.

import { writeFileSync } from 'node:fs'
import { openStore } from '@weft/store'
import { type Child, type Message, startChild } from './child.js'
import { type Dataset, ensureDatasets } from './data.js'
import { type Figure, figure, quantile, round } from './figure.js'
import { type BlockPagesOptions, blockPagesFigure, measurePages, pagePaths } from './figures/block-pages.js'
import { branchLatencies, branchWalk, median } from './figures/branch.js'
import { type HeaderUpdatesOptions, headerUpdatesRun, p99, rssPerSubscriber } from './figures/header-updates.js'
import { ingestFigures } from './figures/ingest.js'
import { insertRates, manyCall, sampleBlocks } from './figures/inserts.js'
import { addThroughput, perSecond, syncOverHttp, type Throughput } from './figures/sync.js'
import { describeMachine } from './machine.js'
import { resultsPath } from './paths.js'
import { formatTable } from './report.js'

const numberFrom = (name: string, fallback: number): number => {
  const text = process.env[name]
  return text === undefined || text === '' ? fallback : Number(text)
}

const BLOCKS = numberFrom('WEFT_BENCH_BLOCKS', 100_000)
const SECONDS = numberFrom('WEFT_BENCH_SECONDS', 10)
const SEED = 'weft-bench'
const SYNC_CHAINS = [0, 1, 2, 3]
const SYNC_LIMIT = 360

function log(text: string): void {
  process.stderr.write(`bench: ${text}\n`)
}

async function startNode(dataset: Dataset, withFloor = false): Promise<{ child: Child; url: string; floorUrl: string }> {
  const child = startChild('node-process.js', [JSON.stringify({ kind: 'weft', path: dataset.path, network: dataset.network, withFloor })])
  const { url, floorUrl } = await child.next<Message & { url: string; floorUrl?: string }>('ready')
  return { child, url, floorUrl: floorUrl ?? '' }
}

async function stopNode(child: Child): Promise<void> {
  try {
    await child.ask({ type: 'close' }, 'closed')
    await child.exited
  } finally {
    child.kill()
  }
}

async function readTips(dataset: Dataset): Promise<Map<number, { height: number; hash: Buffer }>> {
  const store = await openStore({ path: dataset.path, network: dataset.network })
  try {
    return new Map([...store.cut()].map(([chain, header]) => [chain, { height: header.height, hash: header.hash }]))
  } finally {
    await store.close()
  }
}

async function main(): Promise<void> {
  const started = performance.now()
  const machine = describeMachine()
  log(`${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, node ${machine.node}, load average ${machine.loadAverage}`)
  const [development, singleSmall, singleLarge] = (await ensureDatasets([
    { name: 'development', network: 'development', blocks: BLOCKS, seed: SEED, forkRate: 0.03 },
    { name: 'singleton-1k', network: 'test-singleton', blocks: 1_000, seed: SEED, forkRate: 0 },
    { name: 'singleton-100k', network: 'test-singleton', blocks: BLOCKS, seed: SEED, forkRate: 0 },
  ])) as [Dataset, Dataset, Dataset]
  const fillWallSeconds = (performance.now() - started) / 1000
  const filled = development.filled || singleSmall.filled || singleLarge.filled
  const tips = await readTips(development)
  const network = development.network

  const pageOptions: BlockPagesOptions = {
    dataset: development,
    heads: new Map([...tips].map(([chain, tip]) => [chain, tip.height])),
    seconds: SECONDS,
    bursts: 10,
    warmupSeconds: 2,
    connections: 32,
    limit: 100,
    sample: 40,
  }
  const paths = pagePaths(pageOptions, 200_000)
  log(`block pages: weft and the floor in one node process, ${pageOptions.bursts} bursts each`)
  const node = await startNode(development, true)
  let pages: Awaited<ReturnType<typeof measurePages>>
  let sync: Throughput = { blocks: 0, seconds: 0, bytes: 0 }
  let syncFloor: Throughput = { blocks: 0, seconds: 0, bytes: 0 }
  let walk: Throughput = { blocks: 0, seconds: 0, bytes: 0 }
  let walkMovingBound: Throughput = { blocks: 0, seconds: 0, bytes: 0 }
  try {
    pages = await measurePages({ weft: node.url, floor: node.floorUrl }, paths, pageOptions)
    log('sync and branch walk over HTTP')
    // Chain by chain: the HTTP sync, its in-process floor in the same node process (idle meanwhile),
    // then the branch walks of the same chain, so that drift in the machine's speed hits all alike.
    for (const chain of SYNC_CHAINS) {
      const tip = tips.get(chain)
      if (tip === undefined) throw new Error(`Expected chain ${chain} in the cut`)
      sync = addThroughput(sync, await syncOverHttp(node.url, network, [chain], SYNC_LIMIT))
      syncFloor = addThroughput(
        syncFloor,
        await node.child.ask<Message & Throughput>({ type: 'sync-floor', chains: [chain], limit: SYNC_LIMIT }, 'sync-floor'),
      )
      walk = addThroughput(walk, await branchWalk(node.url, network, chain, tip.hash, SYNC_LIMIT))
      walkMovingBound = addThroughput(walkMovingBound, await branchWalk(node.url, network, chain, tip.hash, SYNC_LIMIT, 'moving-bound'))
    }
    if (sync.blocks !== syncFloor.blocks)
      throw new Error(`Expected the sync and its floor to read the same blocks, received ${sync.blocks} and ${syncFloor.blocks}`)
  } finally {
    await stopNode(node.child)
  }
  const weftPages = pages.weft
  const floorPages = pages.floor

  log('validated inserts in-process')
  const store = await openStore({ path: development.path, network })
  // Measured: heights 301 to 600 of every chain, into stores that took heights 1 to 300 first.
  const warmup = await sampleBlocks(store, 300)
  const blocks = await sampleBlocks(store, 600, 301)
  await store.close()
  const inserts = await insertRates(warmup, blocks, network)

  log('branch latency on 1k and 100k singleton chains')
  const [smallTips, largeTips] = await Promise.all([readTips(singleSmall), readTips(singleLarge)])
  const small = await startNode(singleSmall)
  const large = await startNode(singleLarge)
  const smallTip = smallTips.get(0)
  const largeTip = largeTips.get(0)
  if (smallTip === undefined || largeTip === undefined) throw new Error('Expected chain 0 in the singleton cuts')
  const [smallLatencies, largeLatencies] = (await branchLatencies(
    [
      { url: small.url, network: singleSmall.network, tip: smallTip.hash },
      { url: large.url, network: singleLarge.network, tip: largeTip.hash },
    ],
    100,
    300,
    30,
  )) as [number[], number[]]
  await Promise.all([stopNode(small.child), stopNode(large.child)])

  const updateOptions: HeaderUpdatesOptions = { subscribers: 1000, blockDelay: 1, seconds: SECONDS, warmupSeconds: 2 }
  log(`header updates: ${updateOptions.subscribers} subscribers on the weft server`)
  const weftUpdates = await headerUpdatesRun('weft', updateOptions)
  log(`header updates: ${updateOptions.subscribers} subscribers on the floor server`)
  const floorUpdates = await headerUpdatesRun('floor', updateOptions)

  log('ingest: weft followers copying the development store from a weft node, idle and under read load')
  const ingestNode = await startNode(development)
  let ingest: Figure[]
  try {
    ingest = await ingestFigures({ upstream: ingestNode.url, dataset: development, seconds: SECONDS, connections: 100 })
  } finally {
    await stopNode(ingestNode.child)
  }

  const syncRate = perSecond(sync)
  const figures: Figure[] = [
    blockPagesFigure(pageOptions, weftPages, floorPages),
    figure({
      name: 'sync',
      value: syncRate,
      floor: perSecond(syncFloor),
      target: 0.5,
      bounds: 'ratio',
      direction: '>=',
      unit: 'blocks/s',
      floorIs: 'in-process store.range + readRangeBlocks of the same blocks, pages of 360',
      details: {
        chains: SYNC_CHAINS.join(','),
        blocks: sync.blocks,
        httpSeconds: round(sync.seconds, 3),
        floorSeconds: round(syncFloor.seconds, 3),
        MiBOverHttp: round(sync.bytes / 2 ** 20),
      },
    }),
    figure({
      name: 'branch-latency-100k-vs-1k',
      value: median(largeLatencies),
      floor: median(smallLatencies),
      target: 1.3,
      bounds: 'ratio',
      direction: '<=',
      unit: 'ms',
      floorIs: 'the same request (100 blocks below the tip) on a 1,000-block chain',
      details: {
        requests: smallLatencies.length,
        chainLengths: `${smallTip.height + 1} and ${largeTip.height + 1}`,
        largeP90Ms: round(quantile(largeLatencies, 0.9), 3),
        smallP90Ms: round(quantile(smallLatencies, 0.9), 3),
      },
    }),
    figure({
      name: 'branch-walk',
      value: perSecond(walk),
      floor: syncRate,
      target: 0.5,
      bounds: 'ratio',
      direction: '>=',
      unit: 'blocks/s',
      floorIs: 'the sync figure (GET block pages over HTTP)',
      details: {
        chains: SYNC_CHAINS.join(','),
        blocks: walk.blocks,
        seconds: round(walk.seconds, 3),
        movingBoundBlocksPerSecond: round(perSecond(walkMovingBound)),
        movingBoundRatio: round(perSecond(walkMovingBound) / syncRate, 3),
      },
    }),
    figure({
      name: 'header-updates-p99',
      value: p99(weftUpdates),
      floor: p99(floorUpdates),
      target: 50,
      bounds: 'value',
      direction: '<=',
      unit: 'ms',
      floorIs: 'bare node:http SSE fan-out of the same frames (pre-framed chunks straight to the sockets), same producer and subscribers',
      details: {
        subscribers: updateOptions.subscribers,
        weftBlocksPerSecond: round(weftUpdates.blocksPerSecond),
        floorBlocksPerSecond: round(floorUpdates.blocksPerSecond),
        weftBlocks: weftUpdates.latencies.length,
        weftIncomplete: weftUpdates.incomplete,
        floorIncomplete: floorUpdates.incomplete,
        weftP50Ms: round(quantile(weftUpdates.latencies, 0.5), 3),
        floorP50Ms: round(quantile(floorUpdates.latencies, 0.5), 3),
        // Where the time goes: until the node handed the frame to the last socket, and from the
        // first subscriber's read to the last one's (the subscribers' process reading 1,000 sockets).
        weftHandedOverP99Ms: round(quantile(weftUpdates.handedOver, 0.99), 3),
        floorHandedOverP99Ms: round(quantile(floorUpdates.handedOver, 0.99), 3),
        weftSpreadP99Ms: round(quantile(weftUpdates.spreads, 0.99), 3),
        floorSpreadP99Ms: round(quantile(floorUpdates.spreads, 0.99), 3),
        // How late each node's event loop ran meanwhile (what a request waits).
        weftLoopDelayP99Ms: round(weftUpdates.loopDelay.p99, 3),
        floorLoopDelayP99Ms: round(floorUpdates.loopDelay.p99, 3),
        weftConnected: weftUpdates.connected,
        floorConnected: floorUpdates.connected,
      },
    }),
    figure({
      name: 'header-updates-memory-per-subscriber',
      value: rssPerSubscriber(weftUpdates, updateOptions.subscribers),
      floor: rssPerSubscriber(floorUpdates, updateOptions.subscribers),
      target: null,
      bounds: 'value',
      direction: '<=',
      unit: 'bytes',
      floorIs: 'the same RSS delta of the bare node:http SSE server',
      details: {
        weftRssBeforeMiB: round(weftUpdates.rssBefore / 2 ** 20),
        weftRssAfterMiB: round(weftUpdates.rssAfter / 2 ** 20),
        weftHeapBytesPerSubscriber: Math.round((weftUpdates.heapAfter - weftUpdates.heapBefore) / updateOptions.subscribers),
        floorHeapBytesPerSubscriber: Math.round((floorUpdates.heapAfter - floorUpdates.heapBefore) / updateOptions.subscribers),
      },
    }),
    figure({
      name: 'validated-inserts',
      value: inserts.insertMany,
      floor: inserts.insertManyHashing,
      target: 0.5,
      bounds: 'ratio',
      direction: '>=',
      unit: 'blocks/s',
      floorIs: `computeBlockHash + computePayloadHashes + powHash of the same blocks, alternating with insertMany calls of ${manyCall} blocks`,
      details: {
        blocks: blocks.length,
        warmupBlocks: warmup.length,
        insertManyCallBlocks: manyCall,
        insertBlocksPerSecond: round(inserts.insert),
        insertHashingBlocksPerSecond: round(inserts.hashing),
        insertRatio: round(inserts.insert / inserts.hashing, 3),
      },
    }),
    ...ingest,
  ]
  const seconds = (performance.now() - started) / 1000 - fillWallSeconds
  writeFileSync(resultsPath, `${JSON.stringify(figures, null, 2)}\n`)
  process.stdout.write(`${formatTable(figures, machine, seconds)}\n`)
  if (filled) process.stdout.write(`filling the bench data took ${fillWallSeconds.toFixed(0)} s more (once; later runs reuse it)\n`)
  process.stdout.write(`wrote ${resultsPath}\n`)
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exitCode = 1
})
