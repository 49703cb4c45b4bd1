// What every engine writes and reads: the store's own records, keys and batches, the same bytes in
// the same order for each engine, drawn from a seed. Block records and their transaction index
// entries come from a bench store (real bytes, as `pnpm bench:scale`'s writing floor writes them);
// hashes and request keys are made up, since no engine looks inside them.
import { rewriteIndexKey, type SampledBlock } from '../scale/write-floor.js'

/** Chains of the written store (recap-development's graph once it has twenty). */
export const chains = 20
/** Blocks per atomic batch, as the store's bulk writer batches them (packages/store/src/batch-writer.ts). */
export const blocksPerBatch = 256
/** Records in a page, as the server's block pages read them. */
export const pageRecords = 100

/** One atomic batch: puts in order, key i with value i. */
export interface Batch {
  readonly keys: Buffer[]
  readonly values: Buffer[]
}

// mulberry32: a small generator that fills hashes the same way on every run and every engine.
function generator(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return (t ^ (t >>> 14)) >>> 0
  }
}

// `b | chain u32 | height u64 | hash 32`, as packages/store/src/keys.ts lays block keys out.
const blockKeyLength = 45
function writeBlockKey(key: Buffer, chain: number, height: number): void {
  key[0] = 0x62
  key.writeUInt32BE(chain, 1)
  key.writeUInt32BE(Math.floor(height / 2 ** 32), 5)
  key.writeUInt32BE(height >>> 0, 9)
}

/** The lowest block key of `chain` at `height`: a page of that chain from that height starts at it. */
export function pageStart(chain: number, height: number): Buffer {
  const key = Buffer.alloc(blockKeyLength)
  writeBlockKey(key, chain, height)
  return key
}

/** Entries each block puts on average: its record, hash and payload entries, and its sampled block's index entries. */
export function entriesPerBlock(sample: readonly SampledBlock[]): number {
  return 3 + sample.reduce((sum, { index }) => sum + index.length, 0) / sample.length
}

/**
 * The batches of `blocks` blocks: heights in order from 1, every chain at each height, 256 blocks a
 * batch. Each block puts its record (`sample` in turn) under its block key, its hash index entry
 * (`h | hash` -> chain, height, parent hash), its payload index entry (`p | payload hash` -> block
 * key) and its sampled block's transaction index entries moved to its place, as the store writes a block.
 */
export function* blockBatches(sample: readonly SampledBlock[], blocks: number, seed = 0x77656674): Generator<Batch> {
  const next = generator(seed)
  const parents = Array.from({ length: chains }, () => Buffer.alloc(32))
  for (let first = 0; first < blocks; first += blocksPerBatch) {
    const keys: Buffer[] = []
    const values: Buffer[] = []
    for (let block = first; block < Math.min(first + blocksPerBatch, blocks); block++) {
      const chain = block % chains
      const height = Math.floor(block / chains) + 1
      // The block hash and the payload hash, 32 bytes each, in one buffer whose views the keys copy.
      const hashes = Buffer.allocUnsafe(64)
      for (let at = 0; at < 64; at += 4) hashes.writeUInt32LE(next(), at)
      const key = Buffer.allocUnsafe(blockKeyLength)
      writeBlockKey(key, chain, height)
      hashes.copy(key, 13, 0, 32)
      const hashKey = Buffer.allocUnsafe(33)
      hashKey[0] = 0x68
      hashes.copy(hashKey, 1, 0, 32)
      const hashRecord = Buffer.allocUnsafe(44)
      key.copy(hashRecord, 0, 1, 13)
      parents[chain]!.copy(hashRecord, 12)
      const payloadKey = Buffer.allocUnsafe(33)
      payloadKey[0] = 0x70
      hashes.copy(payloadKey, 1, 32, 64)
      const { record, index } = sample[block % sample.length]!
      keys.push(key, hashKey, payloadKey)
      values.push(record, hashRecord, key)
      for (const [entryKey, value] of index) {
        const requestKey = Buffer.allocUnsafe(12)
        for (let at = 0; at < 12; at += 4) requestKey.writeUInt32LE(next(), at)
        keys.push(rewriteIndexKey(entryKey, chain, height, hashes, requestKey))
        values.push(value)
      }
      parents[chain] = key.subarray(13)
    }
    yield { keys, values }
  }
}

/**
 * `count` deep pages of a store of `blocks` blocks: a chain and a first height each, drawn from a
 * seed, the height in the first tenth of the chain (as `pnpm bench:scale` draws its deep pages),
 * low enough that the page holds `pageRecords` records.
 */
export function deepPages(blocks: number, count: number, seed = 0x64656570): Array<{ chain: number; height: number }> {
  const next = generator(seed)
  const heights = Math.floor(blocks / chains)
  const span = Math.max(1, Math.floor(heights / 10) - pageRecords)
  return Array.from({ length: count }, () => ({ chain: next() % chains, height: 1 + (next() % span) }))
}
