import { chainsAt } from '@weft/block'
import { InvalidCutError } from '@weft/store'
import type { IngestContext } from './context.js'
import { UpstreamResponseError } from './errors.js'
import { reach, type Wanted, want } from './reach.js'
import type { Written } from './served-blocks.js'
import type { UpstreamCut } from './upstream-api.js'

/** Reads the current upstream's cut (retried and failed over like every request) and keeps it as that upstream's latest. */
export async function readCut(ctx: IngestContext): Promise<UpstreamCut> {
  return ctx.pool.use(
    'cut',
    async (api, entry) => {
      const heads = await api.cut(undefined, ctx.signal)
      entry.cut = { heads, at: Date.now() }
      return heads
    },
    ctx.signal,
  )
}

/** The highest head of a cut. */
export function topHeight(cut: UpstreamCut): number {
  return Math.max(0, ...[...cut.values()].map((head) => head.height))
}

/** The heads of a cut as wanted blocks. */
export function cutTargets(cut: UpstreamCut): Wanted {
  const wanted: Wanted = new Map()
  for (const [chain, head] of cut) want(wanted, chain, head)
  return wanted
}

/**
 * Makes the upstream's cut the store's: fetches the heads (and their ancestry) the store lacks,
 * then adopts; answers the blocks it wrote. A cut that names a head at another height than the
 * head's own, or whose chains are not those of the network's graph at its lowest head, is the
 * upstream's fault: that upstream is demoted.
 */
export async function adoptUpstreamCut(ctx: IngestContext, cut: UpstreamCut): Promise<Written> {
  const written = await reach(ctx, cutTargets(cut))
  const misplaced = await misplacedHead(ctx, cut)
  if (misplaced !== undefined) throw demoteCurrent(ctx, new UpstreamResponseError(`Expected the upstream's cut to ${misplaced}`))
  try {
    await ctx.store.adoptCut(new Map([...cut].map(([chain, head]) => [chain, head.hash])))
  } catch (error) {
    if (!(error instanceof InvalidCutError)) throw error
    throw demoteCurrent(
      ctx,
      new UpstreamResponseError(`Expected the upstream's cut to be a cut of ${ctx.network.name}: ${error.message}`, { cause: error }),
    )
  }
  return written
}

// What is wrong with a head the cut names at a height that is not its stored header's (heights that
// lie would have ingest chase blocks that do not exist, copy after copy, and never be ready).
async function misplacedHead(ctx: IngestContext, cut: UpstreamCut): Promise<string | undefined> {
  const heads = [...cut]
  const refs = await ctx.store.getRefs(heads.map(([, head]) => head.hash))
  for (const [index, [chain, head]] of heads.entries()) {
    const ref = refs[index]
    if (ref !== undefined && ref.height !== head.height)
      return `name each head at its height, received height ${head.height} for the head of chain ${chain}, a block at height ${ref.height}`
  }
  return undefined
}

// Demotes the upstream in use for `error`, which is answered for throwing.
function demoteCurrent(ctx: IngestContext, error: UpstreamResponseError): UpstreamResponseError {
  const upstream = ctx.pool.current
  if (upstream !== undefined) ctx.pool.demote(upstream, error)
  return error
}

/**
 * During a copy, moves the store's cut up to the upstream's cut limited to `height` (its `/cut?maxheight`
 * at that height, which the upstream answers with its heads' ancestors there), so that the node's
 * cut, its readiness and its event streams move along with the backfill instead of jumping from
 * genesis to the top at the end. Skipped (false) when the cut would move back on some chain, a head
 * is not stored or not at the height named, or the upstream cannot answer: the copy's final adoption does not depend on it.
 */
export async function adoptLimitedCut(ctx: IngestContext, height: number): Promise<boolean> {
  const api = ctx.pool.current?.api
  if (api === undefined) return false
  // The cut height whose limit (floor(H / n), n the chains of the graph in force at H) is `height`.
  const cutHeight = height * chainsAt(ctx.network, height).length
  let cut: UpstreamCut
  try {
    cut = await api.cut(cutHeight, ctx.signal)
  } catch {
    return false
  }
  const current = ctx.store.cut()
  for (const [chain, head] of cut) if (head.height < (current.get(chain)?.height ?? 0)) return false
  const heads = [...cut.values()]
  const refs = await ctx.store.getRefs(heads.map((head) => head.hash))
  if (refs.some((ref, index) => ref === undefined || ref.height !== heads[index]!.height)) return false
  try {
    await ctx.store.adoptCut(new Map([...cut].map(([chain, head]) => [chain, head.hash])))
  } catch (error) {
    if (error instanceof InvalidCutError) return false
    throw error
  }
  return true
}
