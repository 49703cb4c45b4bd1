import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { NetworkName } from '@weft/types'
import { startChild } from './child.js'
import { benchDataDir } from './paths.js'

/** What a bench store holds; the marker file records it so that a changed size refills. */
export interface DataSpec {
  /** Folder name under bench-data/. */
  readonly name: string
  readonly network: NetworkName
  readonly blocks: number
  readonly seed: string
  readonly forkRate: number
}

/** A filled store, ready to open. */
export interface Dataset extends DataSpec {
  /** The classic-level folder. */
  readonly path: string
  /** Whether this run filled it (false: reused). */
  readonly filled: boolean
  /** Seconds the fill took when this run filled it. */
  readonly fillSeconds: number
}

// Bumped when the bench changes what it expects of a store (3: store layout 2; 4: blocks mined by
// the rules of chainweb-node 3.2, which the store checks; 5: store layout 3, each block written with
// its transaction index: an older folder would catch its index up while being measured), so old
// folders are refilled.
const MARKER_VERSION = 5

function markerText(spec: DataSpec): string {
  return JSON.stringify({ version: MARKER_VERSION, network: spec.network, blocks: spec.blocks, seed: spec.seed, forkRate: spec.forkRate })
}

/**
 * Fills every store that is missing or was filled with other settings, all at once (one child
 * process each, so that two cores fill two stores), with progress on stderr; reuses the others.
 */
export async function ensureDatasets(specs: readonly DataSpec[]): Promise<Dataset[]> {
  const results: Dataset[] = []
  const pending: Array<{ spec: DataSpec; path: string; marker: string }> = []
  for (const spec of specs) {
    const folder = join(benchDataDir, spec.name)
    const path = join(folder, 'store')
    const marker = join(folder, 'marker.json')
    const current = existsSync(marker) ? readFileSync(marker, 'utf8') : undefined
    if (current === markerText(spec) && existsSync(path)) {
      results.push({ ...spec, path, filled: false, fillSeconds: 0 })
    } else {
      rmSync(folder, { recursive: true, force: true })
      mkdirSync(folder, { recursive: true })
      pending.push({ spec, path, marker })
    }
  }
  if (pending.length === 0) return results
  const started = performance.now()
  const progress = new Map<string, { done: number; total: number }>(pending.map(({ spec }) => [spec.name, { done: 0, total: spec.blocks }]))
  let lastDraw = 0
  // A terminal gets one line redrawn in place; a log gets a line every 10 s.
  const tty = process.stderr.isTTY
  const draw = (final: boolean): void => {
    const now = performance.now()
    if (!final && now - lastDraw < (tty ? 500 : 10_000)) return
    lastDraw = now
    const parts = [...progress].map(([name, { done, total }]) => `${name} ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')}`)
    const line = `filling bench data (once): ${parts.join(', ')}, ${((now - started) / 1000).toFixed(0)} s`
    process.stderr.write(tty ? `\r${line}${final ? '\n' : ''}` : `${line}\n`)
  }
  // Two at a time: the machine has two cores, and a fill is CPU-bound.
  const queue = [...pending]
  const worker = async (): Promise<void> => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
      const { spec, path, marker } = item
      const begun = performance.now()
      const child = startChild('fill-process.js', [
        JSON.stringify({ path, network: spec.network, blocks: spec.blocks, seed: spec.seed, forkRate: spec.forkRate }),
      ])
      child.onMessage((message) => {
        if (message.type !== 'progress') return
        progress.set(spec.name, { done: Number(message.done), total: Number(message.total) })
        draw(false)
      })
      await child.next('filled')
      await child.exited
      // The marker is written last: an interrupted fill leaves no marker, so the next run refills.
      writeFileSync(marker, markerText(spec))
      results.push({ ...spec, path, filled: true, fillSeconds: (performance.now() - begun) / 1000 })
    }
  }
  await Promise.all([worker(), worker()])
  draw(true)
  return specs.map((spec) => results.find((r) => r.name === spec.name) as Dataset)
}
