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

// The failures the real node calls ephemeral that the store reports as a violation: the block may
// be valid later (here: once this node's clock passes its creation time), so its upstream is not
// at fault. (A missing parent or adjacent parent is the store's own wait, not a violation.)
const ephemeral: ReadonlySet<string> = new Set(['BLOCK_IN_THE_FUTURE'])

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
 * that fails validation is counted by the codes of the rules it breaks and logged with them; the
 * upstream that served it is demoted, unless every rule it breaks may hold later (a block created
 * after this node's clock: tried again when the round is).
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
    if (error instanceof InvalidBlockError)
      refused(
        ctx,
        error,
        sorted.find((served) => served.block.header.hash.equals(error.hash)),
      )
    throw error
  } finally {
    stop()
  }
}

function refused(ctx: IngestContext, error: InvalidBlockError, served: ServedBlock | undefined): void {
  const codes = [...new Set(error.violations.map((violation) => violation.code))]
  ctx.rejected += 1
  for (const code of codes) ctx.refusals.set(code, (ctx.refusals.get(code) ?? 0) + 1)
  const header = served?.block.header
  const fields = {
    upstream: served?.from.url,
    block: error.hash.toString('base64url'),
    chain: header?.chainId,
    height: header?.height,
    codes,
  }
  if (codes.every((code) => ephemeral.has(code))) {
    ctx.settings.logger.warn({ ...fields, reason: error.message }, "block refused for now: created after this node's clock (is it right?)")
    return
  }
  ctx.settings.logger.error({ ...fields, reason: error.message }, 'block refused')
  if (served !== undefined) ctx.pool.demote(served.from, error)
}
