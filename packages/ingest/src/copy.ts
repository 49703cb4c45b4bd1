import { allChains, chainsAt, genesisHeight } from '@weft/block'
import { hashMapKey } from '@weft/hash-text'
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
 * upstream's cut, window by window; again from there while the upstream moved far meanwhile; then
 * everything above, orphans included, in one last window without a top; finally fetches whatever
 * the upstream's latest cut still lacks and adopts it. Answers how many blocks it wrote.
 */
export async function copy(ctx: IngestContext, hooks: CopyHooks): Promise<number> {
  let cut = await readCut(ctx)
  let start = resumeHeight(ctx)
  const open = new Map<number, number>()
  let wrote = 0
  for (;;) {
    const top = topHeight(cut)
    if (top >= start) {
      wrote += await backfill(ctx, start, cut, hooks, open)
      start = top + 1
    }
    const latest = await readCut(ctx)
    const far = topHeight(latest) - top > farHeights(ctx)
    cut = latest
    if (!far) break
  }
  // What the upstream wrote on a chain after its page of a window was read, below that window's
  // top: the winners came as the ancestry of later blocks, the orphans come only by pages.
  const fetchWindow = windowFetcher(ctx)
  const behind = [...open].filter(([, from]) => from < start)
  const reread = await Promise.all(behind.map(([chain, from]) => fetchWindow({ minheight: from, maxheight: start - 1, chains: [chain] })))
  if (reread.length > 0)
    wrote += await writeWindow(ctx, { window: reread[0]!.window, pages: reread.flatMap((fetched) => fetched.pages) }, hooks)
  // What the upstream added above the pages while they were read: its cut's ancestry would come
  // with the cut, but its orphans only by pages.
  wrote += await writeWindow(ctx, await fetchWindow(tailWindow(ctx, start, topHeight(cut))), hooks)
  return wrote + (await adoptUpstreamCut(ctx, cut)).length
}

// Notes in `open` each chain whose pages of a window ended below its top (its head was inside the
// window when read), from `resumeMargin` heights below where they ended; the lowest such height is kept.
function noteOpenChains(ctx: IngestContext, fetched: FetchedWindow, open: Map<number, number>): void {
  const { window, pages } = fetched
  for (const chain of window.chains) {
    const heights = pages.filter((page) => page.chain === chain).flatMap((page) => page.blocks.map((served) => served.block.header.height))
    const last = Math.max(window.minheight - 1, ...heights)
    if (last < window.maxheight && !open.has(chain)) open.set(chain, Math.max(0, last + 1 - ctx.settings.resumeMargin))
  }
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
async function backfill(ctx: IngestContext, start: number, cut: UpstreamCut, hooks: CopyHooks, open: Map<number, number>): Promise<number> {
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
      noteOpenChains(ctx, window, open)
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
  for (const page of pages) for (const served of page.blocks) pageOf.set(hashMapKey(served.block.header.hash), page)
  const written = await insertWithAncestry(
    ctx,
    pages.flatMap((page) => page.blocks),
  )
  for (const header of written) {
    const page = pageOf.get(hashMapKey(header.hash))
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
