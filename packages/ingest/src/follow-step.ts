import { hashMapKey } from '@weft/hash-text'
import type { IngestContext } from './context.js'
import { farHeights } from './copy.js'
import { adoptUpstreamCut, readCut } from './cut-adoption.js'
import { insertWithAncestry, reach, type Wanted } from './reach.js'
import type { ServedBlock } from './served-blocks.js'

/**
 * One step of following: fetches the announced blocks the store lacks (with their ancestry and
 * neighbours), reads the upstream's cut, fetches what it lacks of that, and adopts it. A chainweb
 * upstream announces only the blocks that join its cut, so its orphans are read by a page of each
 * chain that moved, from `resumeMargin` heights below the lowest new block (an orphan may be
 * written after the block that won over it was announced). Answers 'far' without fetching when a
 * block is too far above the store for branch queries: the caller copies by pages instead.
 */
export async function followStep(ctx: IngestContext, announced: Wanted): Promise<'far' | 'done'> {
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
    if (ctx.pool.current?.api?.target.profile === 'chainweb' && lows.size > 0) await sweep(ctx, lows)
    await adoptUpstreamCut(ctx, cut)
  } finally {
    stop()
  }
  return 'done'
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

// Reads each chain from a margin below its lowest new block up, and stores the blocks it lacks there.
async function sweep(ctx: IngestContext, lows: ReadonlyMap<number, number>): Promise<void> {
  const found: ServedBlock[] = []
  await Promise.all(
    [...lows].map(async ([chain, low]) => {
      let next: string | undefined
      do {
        const { page, entry } = await ctx.limiter.run(() =>
          ctx.pool.use(
            'orphan sweep',
            async (api, from) => ({
              page: await api.blockPage(
                chain,
                { minheight: Math.max(0, low - Math.max(1, ctx.settings.resumeMargin)), limit: ctx.settings.pageSize, next },
                ctx.signal,
              ),
              entry: from,
            }),
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
