import type { Block } from '@weft/block'
import { InvalidBlockError } from '@weft/store'
import type { IngestContext } from './context.js'
import type { UpstreamEntry } from './upstream-entry.js'

/** A block and the upstream that served it (which a failed validation demotes). */
export interface ServedBlock {
  readonly block: Block
  readonly from: UpstreamEntry
}

/** The blocks by height, then chain: every block after its parent and after the neighbours it names (all one height below). */
export function parentFirst(blocks: readonly ServedBlock[]): ServedBlock[] {
  return [...blocks].sort((a, b) => a.block.header.height - b.block.header.height || a.block.header.chainId - b.block.header.chainId)
}

/**
 * Inserts `blocks` parent first with `insertMany`, which validates each one and writes them in
 * batches: on a refused block the ones before it are written and the error is thrown. A block that
 * fails validation demotes the upstream that served it.
 */
export async function insertServed(ctx: IngestContext, blocks: readonly ServedBlock[]): Promise<number> {
  const sorted = parentFirst(blocks)
  try {
    return await ctx.store.insertMany(sorted.map((served) => served.block))
  } catch (error) {
    if (error instanceof InvalidBlockError) {
      ctx.rejected += 1
      const from = sorted.find((served) => served.block.header.hash.equals(error.hash))?.from
      if (from !== undefined) ctx.pool.demote(from, error)
    }
    throw error
  }
}
