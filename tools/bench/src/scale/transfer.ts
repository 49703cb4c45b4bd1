// How fast blocks move between Wefts: a follower's validated copy from a node serving the scale
// store (Weft-to-Weft initial sync), and a snapshot's export and import. Both against the validated
// insert floor measured in the same run (insertMany of the blocks the follower copied).
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import { INDEX_PREFIX } from '@weft/index'
import { importSnapshot, openStore, snapshotFileStream } from '@weft/store'
import type { NetworkName } from '@weft/types'
import { ClassicLevel } from 'classic-level'
import { type Message, startChild } from '../child.js'
import { round } from '../figure.js'
import { residentMemory } from './memory.js'

/** The Weft-to-Weft sync figure: a fresh follower's copy rate over loopback against the validated insert floor. */
export interface SyncFigure {
  /** Blocks per second the follower wrote (validated), its first second left out. */
  readonly rate: number
  readonly blocks: number
  readonly seconds: number
  /** Blocks per second of insertMany (calls of 1,000, parent first) of the same blocks into a fresh store, same process. */
  readonly floor: number
  readonly ratio: number
  /** The follower's own memory (resident, without mapped files) while it copied: the most and the mean of samples every 500 ms. */
  readonly ownMemory: { readonly peak: number; readonly mean: number }
}

/** The snapshot figures of one store. */
export interface SnapshotFigure {
  readonly blocks: number
  readonly exportPerSecond: number
  readonly importPerSecond: number
  readonly fileBytesPerBlock: number
  /** The catch-up of the imported store's transaction index, once its entries are taken away. */
  readonly catchUp: CatchUpFigure
}

/** The index catch-up of an existing store written without it (issue 34): what opening it with the index costs. */
export interface CatchUpFigure {
  readonly blocks: number
  readonly perSecond: number
  /** CPU of the process, every thread (the validation threads derive, LevelDB compacts), per block. */
  readonly cpuMicrosPerBlock: number
}

interface FollowerStatus extends Message {
  readonly inserted: number
  readonly at: number
}

/**
 * Starts a Weft following `upstream` into an empty store, measures its copy for `seconds`, then the
 * insert floor on what it copied. `env` is added to the follower's environment (the deploy files' malloc settings).
 */
export async function weftToWeftSync(
  upstream: string,
  network: NetworkName,
  seconds: number,
  env: Readonly<Record<string, string>> = {},
): Promise<SyncFigure> {
  const child = startChild('follower-process.js', [JSON.stringify({ upstream, network })], [], env)
  try {
    await child.next('ready')
    await sleep(1000)
    const before = await child.ask<FollowerStatus>({ type: 'status' }, 'status')
    // A node filling its store from an upstream, measured from outside as `ps` would.
    const own = [residentMemory(child.pid).anon]
    const sampler = setInterval(() => own.push(residentMemory(child.pid).anon), 500)
    await sleep(seconds * 1000)
    clearInterval(sampler)
    const after = await child.ask<FollowerStatus>({ type: 'status' }, 'status')
    await child.ask({ type: 'stop-ingest' }, 'ingest-stopped')
    const floor = await child.ask<Message & { blocks: number; seconds: number }>({ type: 'insert-floor' }, 'insert-floor')
    await child.ask({ type: 'close' }, 'closed')
    const elapsed = (after.at - before.at) / 1000
    const rate = (after.inserted - before.inserted) / elapsed
    const floorRate = floor.blocks / floor.seconds
    return {
      rate: round(rate),
      blocks: after.inserted - before.inserted,
      seconds: round(elapsed, 1),
      floor: round(floorRate),
      ratio: round(rate / floorRate, 2),
      ownMemory: { peak: Math.max(...own), mean: round(own.reduce((sum, value) => sum + value, 0) / own.length) },
    }
  } finally {
    child.kill()
  }
}

/** Exports a snapshot of the store at `path` (no server holds it) to a file, imports it into a new folder, and times both. */
export async function snapshotRoundTrip(path: string, network: NetworkName): Promise<SnapshotFigure> {
  const folder = mkdtempSync(join(tmpdir(), 'weft-bench-snapshot-'))
  try {
    const file = join(folder, 'store.snapshot.gz')
    const store = await openStore({ path, network })
    let exportSeconds: number
    try {
      const started = performance.now()
      await pipeline(snapshotFileStream(store.snapshot()), createWriteStream(file))
      exportSeconds = (performance.now() - started) / 1000
    } finally {
      await store.close()
    }
    const started = performance.now()
    const imported = await importSnapshot(createReadStream(file), { path: join(folder, 'imported'), network })
    const importSeconds = (performance.now() - started) / 1000
    const fileBytes = statSync(file).size
    rmSync(file)
    return {
      blocks: imported.blocks,
      exportPerSecond: round(imported.blocks / exportSeconds),
      importPerSecond: round(imported.blocks / importSeconds),
      fileBytesPerBlock: round(fileBytes / imported.blocks),
      catchUp: await indexCatchUp(join(folder, 'imported'), network, imported.blocks),
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

/**
 * Makes the store at `path` one written without the transaction index (opened with `index: false`,
 * which records that it keeps none, then its index entries deleted and compacted away), then opens it
 * with the index and times the catch-up until the index is complete.
 */
export async function indexCatchUp(path: string, network: NetworkName, blocks: number): Promise<CatchUpFigure> {
  await (await openStore({ path, network, index: false })).close()
  const db = new ClassicLevel<Buffer, Buffer>(path, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  await db.open()
  try {
    const range = { gte: Buffer.from([INDEX_PREFIX]), lt: Buffer.from([INDEX_PREFIX + 1]) }
    // Deleted by keys read, 10,000 a batch: classic-level's clear(range) left entries of an imported
    // store in place (an account entry of the 100,000-block scale store's import, read again after it).
    for (;;) {
      const keys = await db.keys({ ...range, limit: 10_000 }).all()
      if (keys.length === 0) break
      await db.batch(keys.map((key) => ({ type: 'del' as const, key })))
    }
    await db.compactRange(range.gte, range.lt)
  } finally {
    await db.close()
  }
  const cpu = process.cpuUsage()
  const started = performance.now()
  const store = await openStore({ path, network })
  try {
    const status = await store.index.caughtUp()
    if (status.state !== 'complete') throw new Error(`Expected the index to catch up, but it ended ${status.state}`)
  } finally {
    await store.close()
  }
  const seconds = (performance.now() - started) / 1000
  const used = process.cpuUsage(cpu)
  return { blocks, perSecond: round(blocks / seconds), cpuMicrosPerBlock: round((used.user + used.system) / blocks) }
}
