// The store's writing alone, the other half of a fill's work beside hashing: block records with
// their hash and payload entries and their transaction index entries, keyed and batched as a fill
// writes them, by classic-level with the store's LevelDB options, nothing validated or encoded.
// With the hashing floor it bounds what a fill can reach on the same cores.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { decodeEntry, IndexKind } from '@weft/index'
import { engineStatsOf } from '@weft/store'
import { ClassicLevel } from 'classic-level'
import { round } from '../figure.js'

/** What writing alone costs, and the fill's bound on the same cores with hashing. */
export interface WritingFloor {
  readonly blocks: number
  /** LevelDB entries written per block: record, hash and payload entries, and the index's. */
  readonly entriesPerBlock: number
  readonly perSecond: number
  /** CPU of this process, every thread (LevelDB's compactions included), per block written, µs. */
  readonly cpuMicrosPerBlock: number
  /** What LevelDB wrote against what its tables held at the end. */
  readonly writeAmplification: number
}

// The store's LevelDB options (packages/store/src/open-store.ts) and batch size (batch-writer.ts).
const storeOptions = { keyEncoding: 'buffer', valueEncoding: 'buffer', writeBufferSize: 16 * 1024 * 1024, blockSize: 16 * 1024 } as const
const blocksPerBatch = 256
const chains = 20

/** A stored block as the floor writes it again: its record and its transaction index entries. */
export interface SampledBlock {
  readonly record: Buffer
  /** The block's `i` entries, each key ending with the block's place (see rewriteIndexKey). */
  readonly index: ReadonlyArray<readonly [Buffer, Buffer]>
}

// An index key ends with its block: chain (one varint byte below 241), height (u32) and the first 8
// bytes of the hash; by request key (`ir`, `ip`) in that order, newest first (`ie`, `ia`, `ib`) as
// ⬇height, chain, hash (packages/index/README.md, "Key layout").
const blockPartBytes = 13
const byRequestKey = new Set<number>([IndexKind.transaction, IndexKind.pact])
const place = (chain: number, height: number, hashPrefix: Uint8Array): string =>
  `${chain}:${height}:${Buffer.from(hashPrefix).toString('hex')}`

/**
 * Up to `count` blocks of the store at `path` (genesis blocks left out), each with the index
 * entries the fill wrote for it; nothing else may hold the store.
 */
export async function sampleBlocks(path: string, count: number, withIndex = true): Promise<SampledBlock[]> {
  const db = new ClassicLevel<Buffer, Buffer>(path, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  try {
    const records = new Map<string, { record: Buffer; index: Array<readonly [Buffer, Buffer]> }>()
    for await (const [key, value] of db.iterator({ gte: Buffer.from('b'), lt: Buffer.from('c') })) {
      const height = key.readUInt32BE(5) * 2 ** 32 + key.readUInt32BE(9)
      // Height 0: a genesis block, whose payload is far larger than any other.
      if (height > 0) records.set(place(key.readUInt32BE(1), height, key.subarray(13, 21)), { record: value, index: [] })
      if (records.size >= count) break
    }
    if (withIndex)
      for await (const [key, value] of db.iterator({ gte: Buffer.from('i'), lt: Buffer.from('j') })) {
        const { block } = decodeEntry(key, value)
        records.get(place(block.chain, block.height, block.hashPrefix))?.index.push([key, value])
      }
    return [...records.values()]
  } finally {
    await db.close()
  }
}

// `b | chain u32 | height u64 | hash 32`, as packages/store/src/keys.ts lays block keys out.
function blockKey(chain: number, height: number, hash: Buffer): Buffer {
  const key = Buffer.alloc(45)
  key[0] = 0x62
  key.writeUInt32BE(chain, 1)
  key.writeUInt32BE(Math.floor(height / 2 ** 32), 5)
  key.writeUInt32BE(height >>> 0, 9)
  hash.copy(key, 13)
  return key
}

/**
 * A sampled block's index key for another block: its place at the end; a request key's or pact
 * id's 12 bytes drawn at random (they are hashes), the rest (module and name, account and token) kept.
 */
export function rewriteIndexKey(key: Buffer, chain: number, height: number, hash: Buffer, random: Buffer): Buffer {
  const copy = Buffer.from(key)
  const at = copy.length - blockPartBytes
  if (byRequestKey.has(copy[1]!)) {
    random.copy(copy, 2, 0, 12)
    copy[at] = chain
    copy.writeUInt32BE(height, at + 1)
  } else {
    copy.writeUInt32BE(0xffffffff - height, at)
    copy[at + 4] = chain
  }
  hash.copy(copy, at + 5, 0, 8)
  return copy
}

/**
 * Writes `blocks` blocks into a new folder: heights in order, every chain at each height, a batch
 * of 256 blocks at a time, each block its record and index entries (from `sample`, in turn, each
 * key given the written block's place), an `h` entry and a `p` entry keyed by random hashes, as the
 * store writes them. Times it and counts the CPU and what LevelDB wrote.
 */
export async function writingAlone(sample: readonly SampledBlock[], blocks: number): Promise<WritingFloor> {
  const folder = mkdtempSync(join(tmpdir(), 'weft-bench-writing-'))
  const db = new ClassicLevel<Buffer, Buffer>(join(folder, 'store'), storeOptions)
  await db.open()
  try {
    const cpu = process.cpuUsage()
    const started = performance.now()
    let batch = db.batch()
    let inBatch = 0
    let entries = 0
    for (let written = 0; written < blocks; written++) {
      const { record, index } = sample[written % sample.length]!
      const chain = written % chains
      const height = Math.floor(written / chains) + 1
      const random = randomBytes(32 + 32 + 12 * index.length)
      const hash = random.subarray(0, 32)
      const key = blockKey(chain, height, hash)
      batch.put(key, record)
      batch.put(Buffer.concat([Buffer.from('h'), hash]), Buffer.concat([key.subarray(1, 13), random.subarray(32, 64)]))
      batch.put(Buffer.concat([Buffer.from('p'), random.subarray(32, 64)]), key)
      for (let at = 0; at < index.length; at++) {
        const [entryKey, value] = index[at]!
        batch.put(rewriteIndexKey(entryKey, chain, height, hash, random.subarray(64 + 12 * at)), value)
      }
      entries += 3 + index.length
      if (++inBatch === blocksPerBatch) {
        await batch.write()
        batch = db.batch()
        inBatch = 0
      }
    }
    if (inBatch > 0) await batch.write()
    else await batch.close()
    const seconds = (performance.now() - started) / 1000
    const used = process.cpuUsage(cpu)
    const { levels } = engineStatsOf(db)
    const writtenMiB = levels.reduce((sum, level) => sum + level.writtenMiB, 0)
    const tableMiB = levels.reduce((sum, level) => sum + level.mebibytes, 0)
    return {
      blocks,
      entriesPerBlock: round(entries / blocks, 1),
      perSecond: round(blocks / seconds),
      cpuMicrosPerBlock: round((used.user + used.system) / blocks, 1),
      writeAmplification: round(writtenMiB / tableMiB, 1),
    }
  } finally {
    await db.close()
    rmSync(folder, { recursive: true, force: true })
  }
}

/**
 * Blocks per second that hashing (`hashingFloor`, every core) and writing alone could reach
 * together on `cores` cores: each core's share of both, with nothing else.
 */
export function hashingAndWriting(hashingFloor: number, writing: WritingFloor, cores = availableParallelism()): number {
  return round(cores / (cores / hashingFloor + writing.cpuMicrosPerBlock / 1e6))
}
