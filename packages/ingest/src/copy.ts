import { allChains, chainsAt, genesisHeight } from '@weft/block'
import { mapKeyOfHash } from '@weft/hash-text'
import { type FetchedWindow, planWindow, tailWindow, type Window, windowFetcher } from './backfill-window.js'
import type { IngestContext } from './context.js'
import { adoptLimitedCut, adoptUpstreamCut, readCut, topHeight } from './cut-adoption.js'
import { insertWithAncestry } from './reach.js'
import type { UpstreamCut } from './upstream-api.js'

/** Told of each page a copy wrote, and of its progress in heights. */
export interface CopyHooks {
  onPage(page: { chain: number; minheight: number; maxheight: number; blocks: number; inserted: number }): void
  onProgress(done: number, total: number): void
}

// Windows fetched ahead of the one being written: the next window's requests run while this one's
// blocks are validated and written.
const windowsAhead = 1
// The node's cut follows a copy at most this often (each move reads /cut?maxheight once).
const adoptEveryMs = 1000

/**
 * Copies the upstream into the store: from a little below where the store stands (the lowest
 * chain's best block less `resumeMargin`, so that forks that grew there are read too) up to the
 * upstream's cut, window by window; again from there while the upstream moved far meanwhile; the
 * heights where the upstream may have written meanwhile once more; then everything from the latest
 * cut's lowest head less the margin up, orphans included, in one last window without a top; finally
 * fetches whatever
 * the upstream's latest cut still lacks and adopts it. Answers how many blocks it wrote.
 */
export async function copy(ctx: IngestContext, hooks: CopyHooks): Promise<number> {
  let cut = await readCut(ctx)
  const lowest = rereadHeight(ctx, cut)
  let start = resumeHeight(ctx)
  let wrote = 0
  for (;;) {
    const top = topHeight(cut)
    if (top >= start) {
      wrote += await backfill(ctx, start, cut, hooks)
      start = top + 1
    }
    const latest = await readCut(ctx)
    const far = topHeight(latest) - top > farHeights(ctx)
    cut = latest
    if (!far) break
  }
  // What the upstream wrote while the copy ran, below pages already read: the winners came as the
  // ancestry of later blocks, the orphans come only by pages. A fork grows at most `resumeMargin`
  // below its chain's head, and no head stood lower than the lowest of the first cut, so every such
  // block lies between that height less the margin and the last window's top: those heights are
  // read again (about the heights the upstream grew meanwhile, on every chain).
  for (let from = Math.min(lowest, start); from < start; ) {
    const window = planWindow(ctx, from, start - 1)
    wrote += await writeWindow(ctx, await windowFetcher(ctx)(window), hooks)
    from = window.maxheight + 1
  }
  // What the upstream added while the heights above were read again, and above the pages: its
  // cut's ancestry would come with the cut, but its orphans only by pages. A block written after the
  // latest cut was read lies no lower than that cut's lowest head less the margin, which may be below
  // `start` (chains stand at different heights): the rereads above read those heights before it came.
  const tail = Math.min(start, rereadHeight(ctx, cut))
  wrote += await writeWindow(ctx, await windowFetcher(ctx)(tailWindow(ctx, tail, topHeight(cut))), hooks)
  return wrote + (await adoptUpstreamCut(ctx, cut)).length
}

// The lowest height a block the upstream writes after it answered `cut` can have: the lowest head
// of the cut less the margin within which forks grow.
function rereadHeight(ctx: IngestContext, cut: UpstreamCut): number {
  const heads = [...cut.values()].map((head) => head.height)
  return heads.length === 0 ? 0 : Math.max(0, Math.min(...heads) - ctx.settings.resumeMargin)
}

/** How many heights above the store a block may be and still be fetched with branch queries rather than a copy by pages. */
export function farHeights(ctx: IngestContext): number {
  return Math.max(ctx.settings.resumeMargin, Math.floor(ctx.settings.windowBlocks / chainsAt(ctx.network, 0).length))
}

// Where a copy starts: the lowest best stored block of the chains that have begun, less the margin.
function resumeHeight(ctx: IngestContext): number {
  const heads = ctx.store.heads()
  const heights = allChains(ctx.network).map((chain) => heads.get(chain)?.height ?? genesisHeight(ctx.network, chain))
  return Math.max(0, Math.min(...heights) - ctx.settings.resumeMargin)
}

// Pages every chain from `start` to the top of `cut`, window by window: the blocks of a window are
// written in height order across chains, so every block comes after its parent and neighbours.
// Answers how many blocks it wrote.
async function backfill(ctx: IngestContext, start: number, cut: UpstreamCut, hooks: CopyHooks): Promise<number> {
  const top = topHeight(cut)
  const progress = progressCounter(ctx, start, cut, hooks)
  // Prefetched windows are cancelled with the copy when it fails.
  const cancel = new AbortController()
  const fetchWindow = windowFetcher({ ...ctx, signal: AbortSignal.any([ctx.signal, cancel.signal]) })
  const fetching: Array<Promise<FetchedWindow>> = []
  let next = start
  let adoptedAt = Date.now()
  let wrote = 0
  const launch = (): void => {
    const window: Window = planWindow(ctx, next, top)
    next = window.maxheight + 1
    const fetched = fetchWindow(window)
    // Awaited in turn below; a failure meanwhile must not count as unhandled.
    fetched.catch(() => undefined)
    fetching.push(fetched)
  }
  try {
    while (fetching.length > 0 || next <= top) {
      while (fetching.length <= windowsAhead && next <= top) launch()
      const window = await fetching.shift()!
      wrote += await writeWindow(ctx, window, hooks)
      progress(window.window.maxheight)
      if (window.window.maxheight < top && Date.now() - adoptedAt >= adoptEveryMs) {
        await adoptLimitedCut(ctx, window.window.maxheight)
        adoptedAt = Date.now()
      }
    }
  } finally {
    cancel.abort()
  }
  return wrote
}

// Writes one window and reports its pages, each with the blocks that were new; answers how many
// blocks it wrote (repairs included).
async function writeWindow(ctx: IngestContext, fetched: FetchedWindow, hooks: CopyHooks): Promise<number> {
  const pages = fetched.pages.map((page) => ({ ...page, inserted: 0 }))
  const pageOf = new Map<string, (typeof pages)[number]>()
  for (const page of pages) for (const served of page.blocks) pageOf.set(mapKeyOfHash(served.block.header.hash), page)
  const written = await insertWithAncestry(
    ctx,
    pages.flatMap((page) => page.blocks),
  )
  for (const header of written) {
    const page = pageOf.get(mapKeyOfHash(header.hash))
    if (page !== undefined) page.inserted += 1
  }
  for (const page of pages) {
    const first = page.blocks[0]?.block.header
    const last = page.blocks.at(-1)?.block.header
    if (first === undefined || last === undefined) continue
    hooks.onPage({
      chain: page.chain,
      minheight: first.height,
      maxheight: last.height,
      blocks: page.blocks.length,
      inserted: page.inserted,
    })
  }
  return written.length
}

// Progress in heights summed over the chains of the cut: from `start` to each chain's head.
function progressCounter(ctx: IngestContext, start: number, cut: UpstreamCut, hooks: CopyHooks): (height: number) => void {
  const spans = [...cut].map(([chain, head]) => ({ from: Math.max(start, genesisHeight(ctx.network, chain)), to: head.height }))
  const total = spans.reduce((sum, span) => sum + Math.max(0, span.to - span.from + 1), 0)
  hooks.onProgress(0, total)
  return (height) => {
    const done = spans.reduce((sum, span) => sum + Math.max(0, Math.min(height, span.to) - span.from + 1), 0)
    hooks.onProgress(done, total)
  }
}
