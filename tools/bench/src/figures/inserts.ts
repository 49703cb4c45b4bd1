import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { blockFromJsonText, computeBlockHash, computePayloadHashes, powHash, type Block } from '@weft/block'
import { openStore, type ChainStore } from '@weft/store'

/** Devnet blocks of the bench store, parent first: heights 1..perChain of every chain, orphans included. */
export async function sampleBlocks(store: ChainStore, perChain: number): Promise<Block[]> {
  const blocks: Block[] = []
  for (const chain of store.cut().keys()) {
    const items = []
    for await (const item of store.range({ chain, minheight: 1, maxheight: perChain })) items.push(item)
    for (const json of await store.readRangeBlocks(items)) blocks.push(blockFromJsonText(json))
  }
  return blocks
}

/** Blocks per second of validated inserts and of the hashing alone, measured on the same blocks. */
export interface InsertRates {
  /** store.insert, one block at a time, into a fresh store. */
  readonly insert: number
  /** computeBlockHash + computePayloadHashes + powHash of each block. */
  readonly hashing: number
  /** store.insertMany of the same blocks into another fresh store (for reading the figure). */
  readonly insertMany: number
}

function hashBlock(block: Block): number {
  return (computeBlockHash(block.header)[0] ?? 0) ^ (computePayloadHashes(block.payload).payloadHash[0] ?? 0) ^ Number(powHash(block.header) & 0xffn)
}

async function freshStore<T>(network: ChainStore['network']['name'], use: (store: ChainStore) => Promise<T>): Promise<T> {
  const folder = mkdtempSync(join(tmpdir(), 'weft-bench-inserts-'))
  try {
    const store = await openStore({ path: folder, network })
    try {
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
 * slows both alike: the ratio of the two is what the figure is about.
 */
export async function insertRates(blocks: readonly Block[], network: ChainStore['network']['name'], chunk = 50): Promise<InsertRates> {
  let insertMs = 0
  let hashMs = 0
  let sink = 0
  await freshStore(network, async (store) => {
    for (let at = 0; at < blocks.length; at += chunk) {
      const part = blocks.slice(at, at + chunk)
      let started = performance.now()
      for (const block of part) {
        const { inserted } = await store.insert(block)
        if (!inserted) throw new Error('Expected every sampled block to be new to a fresh store')
      }
      insertMs += performance.now() - started
      started = performance.now()
      for (const block of part) sink ^= hashBlock(block)
      hashMs += performance.now() - started
    }
  })
  // Keeps the hashes alive so that no hashing can be skipped.
  if (sink === -1) process.stderr.write('')
  const manyMs = await freshStore(network, async (store) => {
    const started = performance.now()
    if ((await store.insertMany([...blocks])) !== blocks.length) throw new Error('Expected every sampled block to be new to a fresh store')
    return performance.now() - started
  })
  return { insert: (blocks.length / insertMs) * 1000, hashing: (blocks.length / hashMs) * 1000, insertMany: (blocks.length / manyMs) * 1000 }
}
