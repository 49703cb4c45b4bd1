import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Block, blockFromJsonText, computeBlockHash, computePayloadHashes, powHash } from '@weft/block'
import { type ChainStore, openStore } from '@weft/store'

/** Devnet blocks of the bench store, heights `from` (1) to `to` of every chain, orphans included, by height: each after its parent and neighbours. */
export async function sampleBlocks(store: ChainStore, to: number, from = 1): Promise<Block[]> {
  const blocks: Block[] = []
  for (const chain of store.heads().keys()) {
    const items = []
    for await (const item of store.range({ chain, minheight: from, maxheight: to })) items.push(item)
    for (const json of await store.readRangeBlocks(items)) blocks.push(blockFromJsonText(json))
  }
  return blocks.sort((a, b) => a.header.height - b.header.height || a.header.chainId - b.header.chainId)
}

/** Blocks per second of validated inserts and of the hashing alone, measured on the same blocks. */
export interface InsertRates {
  /** store.insert, one block at a time (each awaited), into a store that holds only the blocks below them. */
  readonly insert: number
  /** computeBlockHash + computePayloadHashes + powHash of each block, alternating with `insert`. */
  readonly hashing: number
  /** store.insertMany of the same blocks, in calls of `manyCall` blocks, into another such store. */
  readonly insertMany: number
  /** The same hashing, alternating with the `insertMany` calls: the floor of `insertMany`. */
  readonly insertManyHashing: number
}

/** Blocks per insertMany call: a bulk load hands the store pages of blocks as it gets them. */
export const manyCall = 1000

function hashBlock(block: Block): number {
  return (
    (computeBlockHash(block.header)[0] ?? 0) ^
    (computePayloadHashes(block.payload).payloadHash[0] ?? 0) ^
    Number(powHash(block.header) & 0xffn)
  )
}

// A value that depends on every hash of `blocks`.
function hashBlocks(blocks: readonly Block[]): number {
  let sink = 0
  for (const block of blocks) sink ^= hashBlock(block)
  return sink
}

// Milliseconds of the hashing floor over `blocks`; `keep` receives a value that depends on every hash.
function hashMs(blocks: readonly Block[], keep: (value: number) => void): number {
  const started = performance.now()
  const sink = hashBlocks(blocks)
  const ms = performance.now() - started
  keep(sink)
  return ms
}

// A fresh store that first takes `warmup` (untimed): the blocks under the measured ones (their parents
// and neighbours), and a warm-up of the code that measures pay for. A store starts its own validation
// threads, so a warm-up over another store would leave the measured store's threads cold.
async function warmedStore<T>(
  network: ChainStore['network']['name'],
  warmup: readonly Block[],
  keep: (value: number) => void,
  use: (store: ChainStore) => Promise<T>,
): Promise<T> {
  const folder = mkdtempSync(join(tmpdir(), 'weft-bench-inserts-'))
  try {
    const store = await openStore({ path: folder, network })
    try {
      for (let at = 0; at < warmup.length; at += manyCall) {
        const part = warmup.slice(at, at + manyCall)
        await store.insertMany(part)
        keep(hashBlocks(part))
      }
      return await use(store)
    } finally {
      await store.close()
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

/**
 * Inserts and hashing alternate in chunks of the same blocks, so that other work on the machine
 * slows both alike: the ratio of the two is what the figure is about. Each measure writes into a
 * store that took `warmup` first (the blocks below `blocks`, untimed), so that neither pays for
 * starting threads or compiling code: the figure is a bulk load's steady rate.
 */
export async function insertRates(
  warmup: readonly Block[],
  blocks: readonly Block[],
  network: ChainStore['network']['name'],
  chunk = 50,
): Promise<InsertRates> {
  let sink = 0
  const keep = (value: number): void => {
    sink ^= value
  }
  let insertMs = 0
  let insertHashMs = 0
  await warmedStore(network, warmup, keep, async (store) => {
    for (let at = 0; at < blocks.length; at += chunk) {
      const part = blocks.slice(at, at + chunk)
      const started = performance.now()
      for (const block of part) {
        const { inserted } = await store.insert(block)
        if (!inserted) throw new Error('Expected every sampled block to be new to a fresh store')
      }
      insertMs += performance.now() - started
      insertHashMs += hashMs(part, keep)
    }
  })
  // insertMany the same way: each call's blocks hashed right after it, so drift hits both alike.
  let manyMs = 0
  let manyHashMs = 0
  await warmedStore(network, warmup, keep, async (store) => {
    for (let at = 0; at < blocks.length; at += manyCall) {
      const part = blocks.slice(at, at + manyCall)
      const started = performance.now()
      if ((await store.insertMany(part)) !== part.length) throw new Error('Expected every sampled block to be new to a fresh store')
      manyMs += performance.now() - started
      manyHashMs += hashMs(part, keep)
    }
  })
  // Keeps the hashes alive so that no hashing can be skipped.
  if (sink === -1) process.stderr.write('')
  const rate = (ms: number): number => (blocks.length / ms) * 1000
  return { insert: rate(insertMs), hashing: rate(insertHashMs), insertMany: rate(manyMs), insertManyHashing: rate(manyHashMs) }
}
