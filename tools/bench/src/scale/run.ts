// `pnpm bench:scale`: builds, once, a mainnet-shaped store of --blocks N (default 10,000,000) and
// one of 100,000 by the same generator through the validated write path, then reports what the
// large store costs against the small one: fill rate against the hashing work on all cores (and
// against hashing and the store's writing alone together), bytes per block, open time, memory, and
// the latency of the queries whose cost must not grow.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { deviceReadAhead } from '@weft/store'
import { type Child, type Message, startChild } from '../child.js'
import { describeMachine } from '../machine.js'
import { evictFromPageCache, folderFiles } from '../page-cache.js'
import { repoRoot } from '../paths.js'
import { analyseStore } from './analyse.js'
import { ensureScaleStore, type ScaleStore, scaleSpec } from './dataset.js'
import { deployedMallocEnvironment, residentMemory } from './memory.js'
import { formatScaleReport, formatTransfers, type ScaleSide } from './report.js'
import { servingLatencies } from './serving.js'
import { eventStreamsAtScale } from './streams.js'
import { snapshotRoundTrip, weftToWeftSync } from './transfer.js'
import { sampleBlocks, writingAlone } from './write-floor.js'

const { values } = parseArgs({
  options: {
    blocks: { type: 'string', default: '10000000' },
    small: { type: 'string', default: '100000' },
    'fork-rate': { type: 'string', default: '0.02' },
    rounds: { type: 'string', default: '300' },
    subscribers: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '10' },
    'sync-seconds': { type: 'string', default: '30' },
    'writing-blocks': { type: 'string', default: '1000000' },
  },
})
const log = (line: string): void => void process.stderr.write(`bench:scale: ${line}\n`)

async function serve(store: ScaleStore): Promise<{ child: Child; url: string }> {
  const child = startChild('node-process.js', [JSON.stringify({ kind: 'weft', path: store.path, network: store.network })], ['--expose-gc'])
  const { url } = await child.next<Message & { url: string }>('ready')
  return { child, url }
}

async function main(): Promise<void> {
  const machine = describeMachine()
  log(`${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, node ${machine.node}, load average ${machine.loadAverage}`)
  const forkRate = Number(values['fork-rate'])
  const small = await ensureScaleStore(scaleSpec(Number(values.small), forkRate), log)
  const large = await ensureScaleStore(scaleSpec(Number(values.blocks), forkRate), log)
  // A deep page's first read depends on it: the kernel reads this much around each fault in a table file.
  const storage = await deviceReadAhead(large.path)
  log(`the stores' disk: ${storage === undefined ? 'read-ahead not known' : `${storage.device}, read-ahead ${storage.bytes / 1024} KiB`}`)
  log('measuring the stores at rest')
  const atRest = [await analyseStore(small.path, small.network), await analyseStore(large.path, large.network)]
  // Issue 37: a deep page's first read is measured from a cold page cache (the large store fits in
  // this machine's memory, so after its build the kernel would answer every read from memory).
  const coldPageCache = [small, large].every((store) => evictFromPageCache(folderFiles(store.path)))
  log(
    `serving both stores, ${coldPageCache ? 'their files dropped from the page cache' : 'the page cache as it was (dd refused to drop it)'}`,
  )
  const servers = [await serve(small), await serve(large)]
  try {
    const latencies = await servingLatencies(
      servers.map(({ url }) => ({ url, network: small.network })),
      Number(values.rounds),
      30,
    )
    // After a collection, so that what remains is what the node keeps, not garbage of the queries.
    await Promise.all(servers.map(({ child }) => child.ask({ type: 'memory' }, 'memory')))
    const rss = servers.map(({ child }) => residentMemory(child.pid))
    log("a fresh follower copying the large store (Weft-to-Weft sync), with glibc's defaults, then as deployed")
    const sync = await weftToWeftSync(servers[1]!.url, large.network, Number(values['sync-seconds']))
    // The same, run as the image and the systemd unit run a node: their malloc settings change its memory.
    const environment = deployedMallocEnvironment()
    const asDeployed =
      Object.keys(environment).length === 0
        ? undefined
        : {
            environment,
            sync: await weftToWeftSync(servers[1]!.url, large.network, Number(values['sync-seconds']), environment),
          }
    const sides: ScaleSide[] = [small, large].map((store, index) => ({
      store,
      atRest: atRest[index]!,
      serving: latencies[index]!,
      servingMemory: rss[index]!,
    }))
    for (const { child } of servers.splice(0)) {
      await child.ask({ type: 'close' }, 'closed')
      child.kill()
    }
    log('a snapshot of the small store, exported and imported')
    const transfers = { sync, asDeployed, snapshot: await snapshotRoundTrip(small.path, small.network) }
    log("writing alone: the small store's records and indexes, keyed and batched as a fill's, nothing validated")
    const writing = await writingAlone(await sampleBlocks(small.path, 20_000), Number(values['writing-blocks']))
    const streams = await eventStreamsAtScale(Number(values.subscribers), Number(values.seconds))
    const results = { machine: { ...machine, storage, coldPageCache }, sides, writing, transfers, streams }
    writeFileSync(join(repoRoot, 'bench-scale-results.json'), `${JSON.stringify(results, null, 2)}\n`)
    process.stdout.write(`${formatScaleReport(sides, writing, streams, coldPageCache)}\n\n${formatTransfers(transfers)}\n`)
    log(`wrote ${join(repoRoot, 'bench-scale-results.json')}`)
  } finally {
    for (const { child } of servers) {
      await child.ask({ type: 'close' }, 'closed').catch(() => undefined)
      child.kill()
    }
  }
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error))
  process.exitCode = 1
})
