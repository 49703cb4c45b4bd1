// Child process: fills (or resumes filling) a scale store through the validated write path, mining
// in chunks between timed insertMany calls, and reports progress, insert time and memory over IPC.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { genesisHeight, getNetwork, type Header } from '@weft/block'
import { type ChainStore, openStore } from '@weft/store'
import type { NetworkName } from '@weft/types'
import { fail, send } from '../child.js'
import { residentMemory } from './memory.js'
import { mineHeights } from './miner.js'

/** What the bench asks the fill process for. */
export interface ScaleFillRequest {
  readonly path: string
  readonly progressPath: string
  readonly network: NetworkName
  readonly blocks: number
  readonly seed: string
  readonly forkRate: number
}

/** What a fill has done so far (kept beside the store, so that an interrupted fill resumes). */
export interface ScaleFillProgress {
  readonly blocks: number
  readonly insertSeconds: number
  readonly mineSeconds: number
  /** MiB that LevelDB wrote to table files (memtable flushes and compactions), over every session of the fill. */
  readonly writtenMiB: number
  /** Seconds LevelDB's compactions took (its one background thread), over every session. */
  readonly compactionSeconds: number
  /** CPU seconds of the process, every thread (mining included), over every session. */
  readonly cpuSeconds: number
}

// Heights mined per chunk (times 20 chains: 1,000 blocks, one insertMany call). The chunk is the
// bench's, not the store's, yet it counts in the process's memory: 100 heights held 10-14 MB more at
// the peak of a 1,000,000-block fill (278 against 264 MB own; steady 268 against 254).
const heightsPerChunk = 50
// Blocks per insertMany call, as an ingest or a bulk load hands them over.
const perCall = 1000

// The heads, each brought down to the lowest head's height (or its genesis), so that mining resumes
// in lockstep after a fill stopped inside a chunk; the blocks above are mined again, the same ones.
async function alignedTips(store: ChainStore): Promise<Map<number, Header>> {
  const heads = store.heads()
  const lowest = Math.min(...[...heads.values()].map((head) => head.height))
  const tips = new Map<number, Header>()
  for (const [chain, head] of heads) {
    const height = Math.max(lowest, genesisHeight(store.network, chain))
    const ref = head.height === height ? head : await store.ancestorAt(head.hash, height)
    const header = ref === undefined ? undefined : await store.getHeader(ref.hash)
    if (header === undefined) throw new Error(`Expected chain ${chain} to have a block at ${height}`)
    tips.set(chain, header)
  }
  return tips
}

async function main(): Promise<void> {
  const request = JSON.parse(process.argv[2] ?? '{}') as ScaleFillRequest
  const network = getNetwork(request.network)
  let progress: ScaleFillProgress = existsSync(request.progressPath)
    ? (JSON.parse(readFileSync(request.progressPath, 'utf8')) as ScaleFillProgress)
    : { blocks: 0, insertSeconds: 0, mineSeconds: 0, writtenMiB: 0, compactionSeconds: 0, cpuSeconds: 0 }
  // LevelDB counts from the open, so a resumed fill adds this session's counts to the sessions' before.
  const before = { written: progress.writtenMiB ?? 0, compaction: progress.compactionSeconds ?? 0, cpu: progress.cpuSeconds ?? 0 }
  const cpuAtStart = process.cpuUsage()
  const store = await openStore({ path: request.path, network: request.network })
  let rssPeak = 0
  let anonPeak = 0
  const rss: number[] = []
  const anon: number[] = []
  const sample = setInterval(() => {
    const now = residentMemory()
    rssPeak = Math.max(rssPeak, now.rss)
    anonPeak = Math.max(anonPeak, now.anon)
    rss.push(now.rss)
    anon.push(now.anon)
  }, 1000)
  // What the store's tables hold at the end, against what LevelDB wrote on the way.
  let tableMiB = 0
  try {
    let tips = await alignedTips(store)
    while (progress.blocks < request.blocks) {
      const lowest = Math.min(...[...tips.values()].map((tip) => tip.height))
      const mineStarted = performance.now()
      const mined = mineHeights(network, tips, lowest + heightsPerChunk, request.seed, request.forkRate)
      const mineSeconds = (performance.now() - mineStarted) / 1000
      const insertStarted = performance.now()
      for (let at = 0; at < mined.blocks.length; at += perCall) await store.insertMany(mined.blocks.slice(at, at + perCall))
      const insertSeconds = (performance.now() - insertStarted) / 1000
      tips = mined.tips
      const levels = store.engineStats!().levels
      const cpu = process.cpuUsage(cpuAtStart)
      progress = {
        blocks: progress.blocks + mined.blocks.length,
        insertSeconds: progress.insertSeconds + insertSeconds,
        mineSeconds: progress.mineSeconds + mineSeconds,
        writtenMiB: before.written + levels.reduce((sum, level) => sum + level.writtenMiB, 0),
        compactionSeconds: before.compaction + levels.reduce((sum, level) => sum + level.compactionSeconds, 0),
        cpuSeconds: before.cpu + (cpu.user + cpu.system) / 1e6,
      }
      // Written after the blocks: an interrupted chunk is mined and inserted again (inserts are idempotent).
      writeFileSync(`${request.progressPath}.tmp`, JSON.stringify(progress))
      renameSync(`${request.progressPath}.tmp`, request.progressPath)
      send({ type: 'progress', ...progress, rss: process.memoryUsage().rss })
    }
    tableMiB = store.engineStats!().levels.reduce((sum, level) => sum + level.mebibytes, 0)
  } finally {
    clearInterval(sample)
    await store.close()
  }
  // Steady: the mean of the second half of the samples, when the store is large.
  const steady = (values: number[], peak: number): number => {
    const half = values.slice(Math.floor(values.length / 2))
    return half.length === 0 ? peak : half.reduce((sum, value) => sum + value, 0) / half.length
  }
  send({ type: 'filled', ...progress, tableMiB, rssPeak, rssSteady: steady(rss, rssPeak), anonPeak, anonSteady: steady(anon, anonPeak) })
}

main().catch(fail)
