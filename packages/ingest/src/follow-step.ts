import { hashMapKey } from '@weft/hash-text'
import type { IngestContext } from './context.js'
import { farHeights } from './copy.js'
import { adoptUpstreamCut, readCut } from './cut-adoption.js'
import { insertWithAncestry, reach, type Wanted } from './reach.js'
import type { ServedBlock } from './served-blocks.js'
import { followCursor } from './upstream-api.js'

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
export async function followStep(ctx: IngestContext, announced: Wanted, announcedAll: boolean): Promise<'far' | 'swept' | 'done'> {
  if (tooFar(ctx, announced)) return 'far'
  const lows = new Map<number, number>()
  const stop = ctx.tally.observe((header) => {
    lows.set(header.chainId, Math.min(lows.get(header.chainId) ?? header.height, header.height))
  })
  try {
    await reach(ctx, announced)
    const cut = await readCut(ctx)
    const heads: Wanted = new Map([...cut].map(([chain, head]) => [chain, new Map([[hashMapKey(head.hash), head]])]))
    if (tooFar(ctx, heads)) return 'far'
    await reach(ctx, heads)
    const sweeps = lows.size > 0 && !(announcedAll && ctx.pool.current?.api?.target.profile === 'spec')
    if (sweeps) await sweep(ctx, lows)
    await adoptUpstreamCut(ctx, cut)
    return sweeps ? 'swept' : 'done'
  } finally {
    stop()
  }
}

/**
 * Reads a page of every chain from `resumeMargin` heights below its best stored block, and stores
 * the orphans it lacks there: for those an upstream wrote after the pages or sweeps around them were
 * read, when no later step would sweep their chain (the upstream stopped producing).
 */
export async function sweepTips(ctx: IngestContext): Promise<void> {
  const tips = new Map([...ctx.store.heads()].map(([chain, head]) => [chain, head.height]))
  // No higher than the tips: blocks above them are the steps' and the copies' to fetch, by windows.
  await sweep(ctx, tips, tips)
}

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

// Reads each chain from a margin below its lowest new block up (to `highs`' height when given), and
// stores the blocks it lacks there.
async function sweep(ctx: IngestContext, lows: ReadonlyMap<number, number>, highs?: ReadonlyMap<number, number>): Promise<void> {
  const found: ServedBlock[] = []
  await Promise.all(
    [...lows].map(async ([chain, low]) => {
      const followed = new Set<string>()
      let next: string | undefined
      do {
        const { page, entry } = await ctx.limiter.run(() =>
          ctx.pool.use(
            'orphan sweep',
            async (api, from) => {
              const query = {
                minheight: Math.max(0, low - Math.max(1, ctx.settings.resumeMargin)),
                maxheight: highs?.get(chain),
                limit: ctx.settings.pageSize,
                next,
              }
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
  if (unknown.length > 0) await insertWithAncestry(ctx, unknown)
}
