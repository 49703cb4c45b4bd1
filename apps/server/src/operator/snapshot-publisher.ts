import { createHash } from 'node:crypto'
import { createWriteStream, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { type ChainStore, type StoreSnapshot, snapshotFileStream } from '@weft/store'
import type { Logger } from 'pino'

/** One snapshot of a publisher's manifest. */
export interface PublishedSnapshot {
  /** The file's name, beside the manifest. */
  readonly file: string
  readonly network: string
  /** The cut's height as chainweb counts it: the sum of its chains' heights. */
  readonly height: number
  readonly blocks: number
  /** SHA-256 of the file's bytes, lowercase hex. */
  readonly sha256: string
  readonly bytes: number
  /** When it was taken (ISO 8601). */
  readonly created: string
}

/** `manifest.json` of a snapshot folder: its snapshots, newest first. */
export interface SnapshotManifest {
  readonly format: 'weft-snapshot-manifest'
  readonly version: 1
  readonly snapshots: readonly PublishedSnapshot[]
}

/** The manifest's name in a snapshot folder. */
export const MANIFEST = 'manifest.json'

/** A running schedule of snapshots. */
export interface SnapshotSchedule {
  /** Writes one snapshot now (after the one being written, if any); resolves with it. */
  publish(): Promise<PublishedSnapshot>
  /** Stops the schedule and waits for the snapshot being written. */
  stop(): Promise<void>
}

// The manifest of `dir`, or an empty one when there is none yet (or it cannot be read: it is rewritten whole).
function readManifest(dir: string): SnapshotManifest {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')) as SnapshotManifest
    if (manifest.format === 'weft-snapshot-manifest' && Array.isArray(manifest.snapshots)) return manifest
  } catch {
    // No manifest yet, or a damaged one: the snapshots it named stay on disk, unlisted.
  }
  return { format: 'weft-snapshot-manifest', version: 1, snapshots: [] }
}

// Writes `text` to `path` whole or not at all: a reader never sees half a manifest.
function writeAtomically(path: string, text: string): void {
  writeFileSync(`${path}.partial`, text)
  renameSync(`${path}.partial`, path)
}

// The snapshot's blocks, counted as they are read.
function counted(snapshot: StoreSnapshot, count: { blocks: number }): StoreSnapshot {
  return {
    network: snapshot.network,
    cut: snapshot.cut,
    close: () => snapshot.close(),
    async *blocks() {
      for await (const block of snapshot.blocks()) {
        count.blocks += 1
        yield block
      }
    },
  }
}

/**
 * Writes a snapshot of `store` into `dir` (a consistent view: the store goes on taking blocks), then
 * lists it first in `dir/manifest.json` and deletes the snapshots beyond the newest `keep`. The file
 * is written under a `.partial` name and renamed once complete, and the manifest is replaced whole,
 * so a static server publishing `dir` never offers a part of either.
 */
export async function writeSnapshot(store: ChainStore, dir: string, keep: number): Promise<PublishedSnapshot> {
  mkdirSync(dir, { recursive: true })
  const snapshot = store.snapshot()
  const height = [...snapshot.cut.values()].reduce((sum, head) => sum + head.height, 0)
  const created = new Date()
  const file = `weft-${store.network.name}-${height}-${created.toISOString().replace(/[:.]/g, '-')}.snapshot.gz`
  const partial = join(dir, `.${file}.partial`)
  const hash = createHash('sha256')
  const count = { blocks: 0 }
  let bytes = 0
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk)
      bytes += chunk.length
      done(null, chunk)
    },
  })
  try {
    await pipeline(snapshotFileStream(counted(snapshot, count)), measure, createWriteStream(partial, { flags: 'wx' }))
    renameSync(partial, join(dir, file))
  } catch (error) {
    rmSync(partial, { force: true })
    throw error
  }
  const entry: PublishedSnapshot = {
    file,
    network: store.network.name,
    height,
    blocks: count.blocks,
    sha256: hash.digest('hex'),
    bytes,
    created: created.toISOString(),
  }
  const listed = [entry, ...readManifest(dir).snapshots.filter((old) => old.file !== file)]
  writeAtomically(
    join(dir, MANIFEST),
    `${JSON.stringify({ format: 'weft-snapshot-manifest', version: 1, snapshots: listed.slice(0, keep) }, null, 2)}\n`,
  )
  // Deleted after the manifest stops naming them: a reader that read the old manifest a moment ago may still find the file.
  for (const old of listed.slice(keep)) rmSync(join(dir, old.file), { force: true })
  return entry
}

/**
 * Writes a snapshot into `dir` at once and then `everyMs` after each one ends; a failed one is
 * logged and the schedule goes on. With `ready`, a scheduled snapshot is written only while it
 * holds (a following node publishes once it has caught up with its upstream, not the genesis cut
 * it starts from); until then the schedule checks again every `everyMs`.
 */
export function startSnapshotSchedule(options: {
  store: ChainStore
  dir: string
  everyMs: number
  keep: number
  log: Logger
  ready?: (() => boolean) | undefined
}): SnapshotSchedule {
  const { store, dir, everyMs, keep, log, ready } = options
  let told = false
  let running: Promise<unknown> = Promise.resolve()
  let timer: NodeJS.Timeout | undefined
  let stopped = false
  const publish = (): Promise<PublishedSnapshot> => {
    const started = performance.now()
    const next = running.then(() => writeSnapshot(store, dir, keep))
    running = next.then(
      (entry) => log.info({ ...entry, seconds: Math.round(performance.now() - started) / 1000, dir }, 'snapshot written'),
      (error: unknown) => log.error({ err: error, dir }, 'snapshot not written; the next one is tried on schedule'),
    )
    return next
  }
  // The next snapshot is due `everyMs` after the last one ended: a slow one never piles up behind itself.
  const tick = (): void => {
    if (stopped) return
    const due = ready === undefined || ready()
    if (!due && !told) log.info({ dir }, 'snapshots wait until the node is ready (caught up with its upstream)')
    told ||= !due
    ;(due ? publish() : Promise.resolve())
      .catch(() => undefined)
      .finally(() => {
        if (stopped) return
        timer = setTimeout(tick, everyMs)
        timer.unref()
      })
  }
  tick()
  return {
    publish,
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}
