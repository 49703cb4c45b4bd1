// The scale stores under bench-data/: built once through the validated write path, resumed when a
// build was interrupted, rebuilt when the settings change.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Block, blockFromJsonText } from '@weft/block'
import { openStore } from '@weft/store'
import type { NetworkName } from '@weft/types'
import { startChild } from '../child.js'
import { benchDataDir } from '../paths.js'
import { type GcPauses, GcTrace } from './gc-trace.js'
import { hashingOnAllCores } from './hashing-floor.js'
import { deployedMallocEnvironment } from './memory.js'

/** What a scale store holds. */
export interface ScaleSpec {
  readonly name: string
  readonly network: NetworkName
  readonly blocks: number
  readonly seed: string
  readonly forkRate: number
}

/** How a scale store was built (kept in its marker). */
export interface ScaleBuild {
  readonly blocks: number
  /** Seconds spent in insertMany (mining excluded). */
  readonly insertSeconds: number
  readonly mineSeconds: number
  readonly rssPeak: number
  readonly rssSteady: number
  /** The same, anonymous memory only (without the mapped table files). */
  readonly anonPeak: number
  readonly anonSteady: number
  /** Blocks per second of the hashing work alone on all cores, measured right after the build. */
  readonly hashingFloor: number
  /** The environment the fill ran with beside the bench's own: the deploy files' malloc settings. Absent from a store built before it was recorded. */
  readonly environment?: Readonly<Record<string, string>>
  /** The fill process's garbage collections (`--trace-gc`); absent when the fill resumed an earlier session's. */
  readonly gc?: GcPauses
  /**
   * What LevelDB wrote to table files during the build (flushes and compactions) and what its
   * tables held at the end, MiB: their ratio is its write amplification. The seconds its
   * compactions took, and the CPU seconds of the fill process (every thread, mining included).
   * Absent from a store built before they were recorded.
   */
  readonly engine?: {
    readonly writtenMiB: number
    readonly tableMiB: number
    readonly compactionSeconds: number
    readonly cpuSeconds: number
  }
}

/** A scale store ready to open, and how it was built. */
export interface ScaleStore extends ScaleSpec {
  readonly path: string
  readonly build: ScaleBuild
  readonly builtNow: boolean
}

/** The scale store of `blocks` blocks that `pnpm bench:scale` builds (and `pnpm bench:engines` samples). */
export function scaleSpec(blocks: number, forkRate: number): ScaleSpec {
  return { name: `scale-${blocks}`, network: 'recap-development', blocks, seed: 'weft-scale', forkRate }
}

// Bumped when the generator changes (4: blocks mined by the rules of chainweb-node 3.2, which the
// store checks; 5: store layout 3, with the transaction index written with each block; 6: outputs
// with today's coin.TRANSFER events; 7: request keys are hashes, spread over the key space as real
// ones are, where they were the block's place in text and so shared their first 12 bytes), so old
// stores are built again.
const version = 7
// A store is built as the deploy files run a node (their malloc settings: the fill's memory depends
// on them), and built again when those change.
const identity = (spec: ScaleSpec): string => JSON.stringify({ version, ...spec, malloc: deployedMallocEnvironment() })

/** Up to `count` stored blocks of the first chains of a store, for floors measured on real blocks. */
export async function sampleStoredBlocks(path: string, network: NetworkName, count: number): Promise<Block[]> {
  const store = await openStore({ path, network })
  try {
    const blocks: Block[] = []
    for (const chain of [...store.heads().keys()].sort((a, b) => a - b)) {
      const items = []
      for await (const item of store.range({ chain, minheight: 1 })) {
        items.push(item)
        if (items.length >= count / 4) break
      }
      for (const json of await store.readRangeBlocks(items)) blocks.push(blockFromJsonText(json))
      if (blocks.length >= count) break
    }
    return blocks.slice(0, count)
  } finally {
    await store.close()
  }
}

/** Builds (or resumes building) the store of `spec` unless a finished one is there; progress goes to stderr. */
export async function ensureScaleStore(spec: ScaleSpec, log: (line: string) => void): Promise<ScaleStore> {
  const folder = join(benchDataDir, spec.name)
  const path = join(folder, 'store')
  const markerPath = join(folder, 'marker.json')
  const progressPath = join(folder, 'progress.json')
  const specPath = join(folder, 'spec.json')
  if (existsSync(markerPath)) {
    const marker = JSON.parse(readFileSync(markerPath, 'utf8')) as { identity: string; build: ScaleBuild }
    if (marker.identity === identity(spec)) return { ...spec, path, build: marker.build, builtNow: false }
  }
  // A folder of other settings starts over; one of the same settings resumes where it stopped.
  if (!existsSync(specPath) || readFileSync(specPath, 'utf8') !== identity(spec)) {
    rmSync(folder, { recursive: true, force: true })
    mkdirSync(folder, { recursive: true })
    writeFileSync(specPath, identity(spec))
  }
  const started = performance.now()
  let lastLog = 0
  // Issue 37's GC row: V8 reports each collection of the fill's isolates (main thread, validation
  // workers). A fill resumed from an earlier session has no count of that session's collections.
  const resumed = existsSync(progressPath)
  const gc = new GcTrace()
  const environment = deployedMallocEnvironment()
  const child = startChild(
    'scale/fill-process.js',
    [JSON.stringify({ path, progressPath, ...spec })],
    ['--trace-gc'],
    environment,
    (line) => {
      if (!gc.add(line)) process.stdout.write(`${line}\n`)
    },
  )
  child.onMessage((message) => {
    if (message.type !== 'progress' || performance.now() - lastLog < 10_000) return
    lastLog = performance.now()
    const rate = Number(message.blocks) / Number(message.insertSeconds)
    log(
      `building ${spec.name}: ${Number(message.blocks).toLocaleString('en-US')}/${spec.blocks.toLocaleString('en-US')} blocks, ${Math.round(rate).toLocaleString('en-US')} blocks/s inserted, RSS ${Math.round(Number(message.rss) / 2 ** 20)} MB, ${Math.round((performance.now() - started) / 1000)} s`,
    )
  })
  const filled = await child.next<{ type: string } & Omit<ScaleBuild, 'hashingFloor' | 'engine'> & NonNullable<ScaleBuild['engine']>>(
    'filled',
  )
  await child.exited
  const sample = await sampleStoredBlocks(path, spec.network, 2000)
  const build: ScaleBuild = {
    blocks: filled.blocks,
    insertSeconds: filled.insertSeconds,
    mineSeconds: filled.mineSeconds,
    rssPeak: filled.rssPeak,
    rssSteady: filled.rssSteady,
    anonPeak: filled.anonPeak,
    anonSteady: filled.anonSteady,
    hashingFloor: await hashingOnAllCores(sample, 5),
    ...(resumed ? {} : { gc: gc.totals() }),
    environment,
    engine: {
      writtenMiB: filled.writtenMiB,
      tableMiB: filled.tableMiB,
      compactionSeconds: filled.compactionSeconds,
      cpuSeconds: filled.cpuSeconds,
    },
  }
  writeFileSync(markerPath, JSON.stringify({ identity: identity(spec), build }))
  return { ...spec, path, build, builtNow: true }
}
