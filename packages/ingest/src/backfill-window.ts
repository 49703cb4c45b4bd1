import { WeftHttpError } from '@weft/api'
import { allChains, chainsAt, genesisHeight } from '@weft/block'
import type { IngestContext } from './context.js'
import type { ServedBlock } from './served-blocks.js'
import { cursorRefused, type FetchedPage, followCursor } from './upstream-api.js'
import type { UpstreamEntry } from './upstream-entry.js'

/** A range of heights copied at once on every chain that exists there; no top (`Infinity`) reads every block from `minheight` up. */
export interface Window {
  readonly minheight: number
  readonly maxheight: number
  readonly chains: readonly number[]
}

/** One page of a window as fetched: its chain and blocks. */
export interface WindowPage {
  readonly chain: number
  readonly blocks: readonly ServedBlock[]
}

/** A window with every page of every chain. */
export interface FetchedWindow {
  readonly window: Window
  readonly pages: readonly WindowPage[]
}

/**
 * The window starting at `minheight`: about `windowBlocks` blocks over the chains of the graph in
 * force there (each chain one height per block, orphans aside), at most a page of heights per
 * chain, no higher than `top`. Its chains are those whose genesis block is at or below its top.
 */
export function planWindow(ctx: Pick<IngestContext, 'network' | 'settings'>, minheight: number, top: number): Window {
  const perChain = Math.floor(ctx.settings.windowBlocks / chainsAt(ctx.network, minheight).length)
  const heights = Math.max(1, Math.min(perChain, ctx.settings.pageSize))
  const maxheight = Math.min(top, minheight + heights - 1)
  const chains = allChains(ctx.network).filter((chain) => genesisHeight(ctx.network, chain) <= maxheight)
  return { minheight, maxheight, chains }
}

/** The window of every block from `minheight` up, on the chains that exist at `top`. */
export function tailWindow(ctx: Pick<IngestContext, 'network'>, minheight: number, top: number): Window {
  const chains = allChains(ctx.network).filter((chain) => genesisHeight(ctx.network, chain) <= Math.max(minheight, top))
  return { minheight, maxheight: Number.POSITIVE_INFINITY, chains }
}

/** Fetches every page of every chain of a window, the chains at once (the limiter bounds the requests in flight). */
export function windowFetcher(ctx: IngestContext): (window: Window) => Promise<FetchedWindow> {
  return async (window) => {
    const pages = await Promise.all(window.chains.map((chain) => chainPages(ctx, chain, window)))
    return { window, pages: pages.flat() }
  }
}

// The pages of one chain in the window, following `next` (a window holds more than a page when a
// chain has many orphans there).
async function chainPages(ctx: IngestContext, chain: number, window: Window): Promise<WindowPage[]> {
  const pages: WindowPage[] = []
  const query = {
    minheight: Math.max(window.minheight, genesisHeight(ctx.network, chain)),
    maxheight: Number.isFinite(window.maxheight) ? window.maxheight : undefined,
    limit: ctx.settings.pageSize,
  }
  // The upstreams that refused a cursor once in this window, and the cursors this walk followed.
  const restarted = new Set<UpstreamEntry>()
  let followed = new Set<string>()
  let next: string | undefined
  for (;;) {
    const answer = await ctx.limiter.run(() =>
      ctx.pool.use(
        'block page',
        async (api, entry): Promise<{ page: FetchedPage; entry: UpstreamEntry } | 'restart'> => {
          try {
            const page = await api.blockPage(chain, { ...query, next }, ctx.signal)
            return { page: { ...page, next: followCursor(followed, page.next, entry.url) }, entry }
          } catch (error) {
            if (next === undefined || !(error instanceof WeftHttpError) || error.status !== 404) throw error
            // After a failover the cursor may name a block the new upstream does not hold: start
            // over, once per upstream; refusing again is refusing the cursors of its own pages.
            if (restarted.has(entry)) throw cursorRefused(entry.url, next, error)
            restarted.add(entry)
            return 'restart'
          }
        },
        ctx.signal,
      ),
    )
    if (answer === 'restart') {
      pages.length = 0
      followed = new Set()
      next = undefined
      continue
    }
    pages.push({ chain, blocks: answer.page.blocks.map((block) => ({ block, from: answer.entry })) })
    next = answer.page.next
    if (next === undefined) return pages
  }
}
