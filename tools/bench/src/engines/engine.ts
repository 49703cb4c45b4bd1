// The surface every engine under test offers the bench: atomic batches of puts, a page of records
// read in key order, what the engine says it wrote, and close.
import type { Batch } from './workload.js'

/** An open database of one engine. */
export interface Engine {
  /** Writes the batch atomically; resolves once the engine holds it (a read sees it). */
  write(batch: Batch): Promise<void>
  /** The values of the first `limit` keys from `gte` (inclusive) below `lt`, in key order. */
  readPage(gte: Buffer, lt: Buffer, limit: number): Promise<Buffer[]>
  /**
   * What the engine says it wrote to its tables (flushes and compactions, its log left out) and
   * what its tables hold now, bytes; undefined for an engine that does not say.
   */
  tableAccounts(): { readonly writtenBytes: number; readonly heldBytes: number } | undefined
  close(): Promise<void>
}

/** An abstract-level iterator, read as the store reads a page: 16 entries first, then twice as many each call. */
export interface LevelIterator {
  nextv(size: number): Promise<Array<[Buffer, Buffer]>>
  close(): Promise<void>
}

/** The values of up to `limit` entries of `iterator`, read in the store's steps; closes it. */
export async function readInSteps(iterator: LevelIterator, limit: number): Promise<Buffer[]> {
  const values: Buffer[] = []
  try {
    for (let step = 16; values.length < limit; step *= 2) {
      const entries = await iterator.nextv(Math.min(step, limit - values.length))
      if (entries.length === 0) break
      for (const [, value] of entries) values.push(value)
    }
    return values
  } finally {
    await iterator.close()
  }
}
