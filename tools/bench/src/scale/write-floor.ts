// The store's writing alone, the other half of a fill's work beside hashing: block records with
// their hash and payload index entries, keyed and batched as a fill writes them, by classic-level
// with the store's LevelDB options, nothing validated or encoded. With the hashing floor it bounds
// what a fill can reach on the same cores.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { engineStatsOf } from '@weft/store'
import { ClassicLevel } from 'classic-level'
import { round } from '../figure.js'

/** What writing alone costs, and the fill's bound on the same cores with hashing. */
export interface WritingFloor {
  readonly blocks: number
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

/** Up to `count` block records (`b` values) of the store at `path`, genesis blocks left out; nothing else may hold it. */
export async function sampleRecords(path: string, count: number): Promise<Buffer[]> {
  const db = new ClassicLevel<Buffer, Buffer>(path, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  try {
    const records: Buffer[] = []
    for await (const [key, value] of db.iterator({ gte: Buffer.from('b'), lt: Buffer.from('c') })) {
      // Height 0 (bytes 5-12 of the key): a genesis block, whose payload is far larger than any other.
      if (key.readUInt32BE(5) > 0 || key.readUInt32BE(9) > 0) records.push(value)
      if (records.length >= count) break
    }
    return records
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
 * Writes `blocks` blocks into a new folder: heights in order, every chain at each height, a batch
 * of 256 blocks at a time, each block its record (from `records`, in turn), an `h` entry and a `p`
 * entry keyed by random hashes, as the store writes them. Times it and counts the CPU and what
 * LevelDB wrote.
 */
export async function writingAlone(records: readonly Buffer[], blocks: number): Promise<WritingFloor> {
  const folder = mkdtempSync(join(tmpdir(), 'weft-bench-writing-'))
  const db = new ClassicLevel<Buffer, Buffer>(join(folder, 'store'), storeOptions)
  await db.open()
  try {
    const cpu = process.cpuUsage()
    const started = performance.now()
    let batch = db.batch()
    for (let written = 0; written < blocks; written++) {
      const hash = randomBytes(32)
      const key = blockKey(written % chains, Math.floor(written / chains) + 1, hash)
      const index = Buffer.concat([key.subarray(1, 13), randomBytes(32)])
      batch.put(key, records[written % records.length]!)
      batch.put(Buffer.concat([Buffer.from('h'), hash]), index)
      batch.put(Buffer.concat([Buffer.from('p'), randomBytes(32)]), key)
      if (batch.length >= blocksPerBatch * 3) {
        await batch.write()
        batch = db.batch()
      }
    }
    if (batch.length > 0) await batch.write()
    else await batch.close()
    const seconds = (performance.now() - started) / 1000
    const used = process.cpuUsage(cpu)
    const { levels } = engineStatsOf(db)
    const writtenMiB = levels.reduce((sum, level) => sum + level.writtenMiB, 0)
    const tableMiB = levels.reduce((sum, level) => sum + level.mebibytes, 0)
    return {
      blocks,
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
