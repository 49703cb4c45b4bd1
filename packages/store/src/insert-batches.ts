import type { Block, Header } from '@weft/block'
import { type EncodedBlock, encodeBlock } from './block-encoding.js'
import type { ValidationPool } from './validation-pool.js'

/**
 * Blocks of one insertMany call written per batch: large enough to amortise a write, small enough
 * that a batch stays a few hundred kilobytes.
 */
export const blocksPerBatch = 256

/** The batches of one insertMany call. */
export function inBatches<T>(items: readonly T[]): Array<readonly T[]> {
  const batches: Array<readonly T[]> = []
  for (let start = 0; start < items.length; start += blocksPerBatch) batches.push(items.slice(start, start + blocksPerBatch))
  return batches
}

/**
 * A batch of an insertMany call, validated by the pool: each block's header and encoding, and, when
 * a text of the batch is not a block, the error to throw once the blocks before it are written.
 */
export interface EncodedBatch {
  readonly headers: readonly Header[]
  readonly encoded: readonly EncodedBlock[]
  readonly unreadable?: Error
}

/** An insert() call waiting in a group of concurrent ones that are written together. */
export interface PendingInsert {
  readonly block: Block
  resolve(result: { inserted: boolean }): void
  reject(error: unknown): void
}

/**
 * The encodings of a group's blocks (with their index entries when `index`), and the callers whose
 * blocks have one: a block that cannot be encoded (a malformed one) refuses its own caller, not the
 * others of its group.
 */
export async function encodeGroup(
  pool: ValidationPool,
  group: readonly PendingInsert[],
  index: boolean,
): Promise<{ part: PendingInsert[]; encoded: EncodedBlock[] }> {
  try {
    return {
      part: [...group],
      encoded: await pool.encode(
        group.map((pending) => pending.block),
        index,
      ),
    }
  } catch {
    const part: PendingInsert[] = []
    const encoded: EncodedBlock[] = []
    for (const pending of group) {
      try {
        encoded.push(encodeBlock(pending.block, index))
        part.push(pending)
      } catch (error) {
        pending.reject(error)
      }
    }
    return { part, encoded }
  }
}
