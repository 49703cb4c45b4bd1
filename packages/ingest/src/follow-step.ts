import type { Header } from '@weft/block'
import { mapKeyOfHash } from '@weft/hash-text'
import type { IngestContext } from './context.js'
import { farHeights } from './copy.js'
import { adoptUpstreamCut, readCut } from './cut-adoption.js'
import { insertWithAncestry, reach, type Wanted } from './reach.js'
import type { ServedBlock, Written } from './served-blocks.js'
import { followCursor } from './upstream-api.js'

/** How a follow step ended ('far': a block too far above the store, nothing fetched past it; 'swept': pages were read for orphans), and the blocks it wrote. */
export interface StepResult {
  readonly outcome: 'far' | 'swept' | 'done'
  readonly wrote: number
}

/**
 * One step of following: fetches the announced blocks the store lacks (with their ancestry and
 * neighbours), reads the upstream's cut, fetches what it lacks of that, and adopts it. Orphans come
 * by announcement only from a spec upstream whose stream was open since the last step with nothing
 * dropped (`announcedAll`): a chainweb upstream announces only the blocks that join its cut, and a
 * step driven by the cut alone knows only the cut's ancestry. Otherwise a page of each chain that
 * moved is read, from `resumeMargin` heights below its lowest new block (an orphan may be written
 * after the block that won over it): 'swept'. Answers 'far' without fetching when a block is too far
 * above the store for branch queries: the caller copies by pages instead.
 */
export async function followStep(ctx: IngestContext, announced: Wanted, announcedAll: boolean): Promise<StepResult> {
  if (tooFar(ctx, announced)) return { outcome: 'far', wrote: 0 }
  const reached = await reach(ctx, announced)
  const cut = await readCut(ctx)
  const heads: Wanted = new Map([...cut].map(([chain, head]) => [chain, new Map([[mapKeyOfHash(head.hash), head]])]))
  if (tooFar(ctx, heads)) return { outcome: 'far', wrote: reached.length }
  const written = reached.concat(await reach(ctx, heads))
  const sweeps = written.length > 0 && !(announcedAll && ctx.pool.current?.api?.target.profile === 'spec')
  const swept = sweeps ? await sweep(ctx, stepSweep(written, ctx.settings.resumeMargin)) : []
  const adopted = await adoptUpstreamCut(ctx, cut)
  return { outcome: sweeps ? 'swept' : 'done', wrote: written.length + swept.length + adopted.length }
}

/**
 * Reads a page of every chain from `resumeMargin` heights below its best stored block, and stores
 * the orphans it lacks there: for those an upstream wrote after the pages or sweeps around them were
 * read, when no later step would sweep their chain (the upstream stopped producing). Answers the
 * blocks it wrote.
 */
export async function sweepTips(ctx: IngestContext): Promise<number> {
  return (await sweep(ctx, tipSweep(ctx.store.heads(), ctx.settings.resumeMargin))).length
}

/** Heights a sweep reads on a chain: from `minheight` up, to `maxheight` when it has one. */
export interface SweepRange {
  readonly minheight: number
  readonly maxheight: number | undefined
}

/** A step's sweep: each chain it wrote on, from `resumeMargin` (at least 1) below its lowest new block up, orphans above included. */
export function stepSweep(written: ReadonlyArray<Pick<Header, 'chainId' | 'height'>>, resumeMargin: number): Map<number, SweepRange> {
  const lows = new Map<number, number>()
  for (const header of written) lows.set(header.chainId, Math.min(lows.get(header.chainId) ?? header.height, header.height))
  return new Map([...lows].map(([chain, low]) => [chain, { minheight: below(low, resumeMargin), maxheight: undefined }]))
}

/**
 * The sweep of a quiet upstream: every chain from `resumeMargin` (at least 1) below its tip up to
 * the tip. No higher: blocks above the tips are the steps' and the copies' to fetch, by windows.
 */
export function tipSweep(tips: ReadonlyMap<number, { readonly height: number }>, resumeMargin: number): Map<number, SweepRange> {
  return new Map([...tips].map(([chain, tip]) => [chain, { minheight: below(tip.height, resumeMargin), maxheight: tip.height }]))
}

const below = (height: number, resumeMargin: number): number => Math.max(0, height - Math.max(1, resumeMargin))

// Whether a wanted block lies more than a copy's margin above the store's best block of its chain.
function tooFar(ctx: IngestContext, wanted: Wanted): boolean {
  const heads = ctx.store.heads()
  const far = farHeights(ctx)
  for (const [chain, targets] of wanted) {
    const height = heads.get(chain)?.height ?? 0
    for (const target of targets.values()) if (target.height - height > far) return true
  }
  return false
}

// Reads the pages of each chain's range and stores the blocks it lacks there; answers them.
async function sweep(ctx: IngestContext, ranges: ReadonlyMap<number, SweepRange>): Promise<Written> {
  const found: ServedBlock[] = []
  await Promise.all(
    [...ranges].map(async ([chain, range]) => {
      const followed = new Set<string>()
      let next: string | undefined
      do {
        const { page, entry } = await ctx.limiter.run(() =>
          ctx.pool.use(
            'orphan sweep',
            async (api, from) => {
              const query = { ...range, limit: ctx.settings.pageSize, next }
              const answer = await api.blockPage(chain, query, ctx.signal)
              return { page: { ...answer, next: followCursor(followed, answer.next, from.url) }, entry: from }
            },
            ctx.signal,
          ),
        )
        for (const block of page.blocks) found.push({ block, from: entry })
        next = page.next
      } while (next !== undefined)
    }),
  )
  const refs = await ctx.store.getRefs(found.map((served) => served.block.header.hash))
  const unknown = found.filter((_, index) => refs[index] === undefined)
  return unknown.length === 0 ? [] : insertWithAncestry(ctx, unknown)
}
