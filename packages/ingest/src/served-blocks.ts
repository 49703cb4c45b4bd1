import type { Block, Header } from '@weft/block'
import { InvalidBlockError, MissingAdjacentError, MissingParentError } from '@weft/store'
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

/** The headers of the blocks a call wrote (those new to the store), in the order written. */
export type Written = readonly Header[]

/** What one insert wrote, and the refusal for a missing parent or neighbour that stopped it, if one did. */
export interface InsertOutcome {
  readonly written: Written
  readonly missing?: MissingParentError | MissingAdjacentError | undefined
}

/**
 * Inserts `blocks` parent first with `insertMany`, which validates each one and writes them in
 * batches: on a refused block the ones before it are written. A block refused for a missing parent
 * or neighbour is answered (`missing`) with what was written; any other refusal is thrown. A block
 * that fails validation demotes the upstream that served it.
 */
export async function insertServed(ctx: IngestContext, blocks: readonly ServedBlock[]): Promise<InsertOutcome> {
  const sorted = parentFirst(blocks)
  // insertMany answers a count: the headers it wrote are read off the store's change feed while it
  // runs (ingest writes one call at a time, and nothing else writes its store).
  const written: Header[] = []
  const stop = ctx.store.subscribe((event) => {
    if (event.type === 'inserted') written.push(event.header)
  })
  try {
    await ctx.store.insertMany(sorted.map((served) => served.block))
    return { written }
  } catch (error) {
    if (error instanceof MissingParentError || error instanceof MissingAdjacentError) return { written, missing: error }
    if (error instanceof InvalidBlockError) {
      ctx.rejected += 1
      const from = sorted.find((served) => served.block.header.hash.equals(error.hash))?.from
      if (from !== undefined) ctx.pool.demote(from, error)
    }
    throw error
  } finally {
    stop()
  }
}
