import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Block } from '@weft/block'
import { fill } from '@weft/devnet'
import { type ChainStore, openStore } from '@weft/store'
import { sampleBlocks } from '../figures/inserts.js'

/** Blocks per second written with and without fsync, one block per write and in bulk. */
export interface SyncWriteRates {
  readonly single: { plain: number; synced: number }
  readonly bulk: { plain: number; synced: number }
  readonly singleBlocks: number
  readonly bulkBlocks: number
}

async function inFreshStore<T>(syncWrites: boolean, use: (store: ChainStore) => Promise<T>): Promise<T> {
  const folder = mkdtempSync(join(tmpdir(), 'weft-bench-sync-'))
  try {
    const store = await openStore({ path: folder, network: 'development', syncWrites })
    try {
      return await use(store)
    } finally {
      await store.close()
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

// Milliseconds to insert `blocks` into a fresh store: one awaited insert each (as the devnet producer
// writes), or insertMany calls of `call` blocks (as a fill or a bulk copy does).
async function insertMs(blocks: readonly Block[], syncWrites: boolean, call: number): Promise<number> {
  return inFreshStore(syncWrites, async (store) => {
    const started = performance.now()
    for (let at = 0; at < blocks.length; at += call) {
      const part = blocks.slice(at, at + call)
      if (call === 1) await store.insert(part[0] as Block)
      else await store.insertMany(part)
    }
    return performance.now() - started
  })
}

/** Measures `--sync-writes`: the same devnet blocks inserted without and with fsync, alternating, `rounds` times each. */
export async function syncWriteRates(options: { singleBlocks: number; bulkBlocks: number; rounds: number }): Promise<SyncWriteRates> {
  const blocks = await inFreshStore(false, async (store) => {
    await fill(store, { blocks: options.bulkBlocks, forkRate: 0.05, seed: 'weft-sync-writes' })
    return sampleBlocks(store, Math.ceil(options.bulkBlocks / 20))
  })
  const single = blocks.slice(0, options.singleBlocks)
  const bulk = blocks.slice(0, options.bulkBlocks)
  const totals = { singlePlain: 0, singleSynced: 0, bulkPlain: 0, bulkSynced: 0 }
  // A warm-up pass of each, so that neither pays for compiling the code.
  await insertMs(single.slice(0, 100), false, 1)
  await insertMs(bulk.slice(0, 1000), false, 1000)
  for (let round = 0; round < options.rounds; round++) {
    totals.singlePlain += await insertMs(single, false, 1)
    totals.singleSynced += await insertMs(single, true, 1)
    totals.bulkPlain += await insertMs(bulk, false, 1000)
    totals.bulkSynced += await insertMs(bulk, true, 1000)
  }
  const rate = (count: number, ms: number): number => (count * options.rounds * 1000) / ms
  return {
    single: { plain: rate(single.length, totals.singlePlain), synced: rate(single.length, totals.singleSynced) },
    bulk: { plain: rate(bulk.length, totals.bulkPlain), synced: rate(bulk.length, totals.bulkSynced) },
    singleBlocks: single.length,
    bulkBlocks: bulk.length,
  }
}
