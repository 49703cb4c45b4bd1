import { WeftHttpError } from '@weft/api'
import { genesisHeight } from '@weft/block'
import { mapKeyOfHash } from '@weft/hash-text'
import type { IngestContext } from './context.js'
import { UpstreamResponseError } from './errors.js'
import { insertServed, type ServedBlock, type Written } from './served-blocks.js'
import { cursorRefused, type FetchedPage, followCursor } from './upstream-api.js'
import type { UpstreamEntry } from './upstream-entry.js'

/** A block ingest wants stored: its hash and height. */
export interface Target {
  readonly hash: Buffer
  readonly height: number
}

/** Wanted blocks by chain, each chain's by `mapKeyOfHash`. */
export type Wanted = Map<number, Map<string, Target>>

/** Adds `target` on `chain` to `wanted`. */
export function want(wanted: Wanted, chain: number, target: Target): void {
  let chainTargets = wanted.get(chain)
  if (chainTargets === undefined) {
    chainTargets = new Map()
    wanted.set(chain, chainTargets)
  }
  chainTargets.set(mapKeyOfHash(target.hash), target)
}

// The branch query's distinct upper bounds at most (the contract's limit).
const maxBounds = 32
// The first round reads at most this many heights below the store's blocks of a chain; each further
// round twice as many. Bounds the walk when the upstream does not know the lower bounds.
const firstDepth = 256
const maxRounds = 12
// Refused inserts repaired by fetching the missing ancestry, per call.
const maxRepairs = 8

/**
 * Fetches, with branch queries, every block the store lacks of the ancestry of `targets` and of the
 * neighbours those blocks name, then inserts them parent first. Lower bounds are the store's own
 * blocks of the chain (its best block and the cut's head), so a query returns what is missing from
 * the fork point up; an upper bound the upstream does not know is skipped. Answers what it wrote.
 */
export async function reach(ctx: IngestContext, targets: Wanted): Promise<Written> {
  const collected = new Map<string, ServedBlock>()
  let missing = await unstored(ctx, targets, collected)
  for (let round = 0; missing.size > 0; round++) {
    if (round === maxRounds) {
      throw new UpstreamResponseError(
        `Expected the upstreams to serve the ancestry of the blocks ingest follows, but ${[...missing.values()].reduce((n, m) => n + m.size, 0)} blocks were still missing after ${maxRounds} rounds of branch queries`,
      )
    }
    await Promise.all([...missing].map(([chain, chainTargets]) => fetchBranch(ctx, chain, [...chainTargets.values()], round, collected)))
    missing = await unstored(ctx, namedBy(ctx, collected), collected)
  }
  if (collected.size === 0) return []
  const outcome = await insertServed(ctx, [...collected.values()])
  if (outcome.missing !== undefined) throw outcome.missing
  return outcome.written
}

/**
 * Inserts `blocks` parent first; when the store refuses one for a missing parent or adjacent (a
 * fork that grew below where the pages began, a neighbour written upstream after its chain's page
 * was read), fetches with `reach` the ancestry of every parent and neighbour the blocks name that is
 * neither among them nor stored, and tries again, a few times at most. Answers everything it wrote,
 * the repairs' blocks included.
 */
export async function insertWithAncestry(ctx: IngestContext, blocks: readonly ServedBlock[]): Promise<Written> {
  let written: Written = []
  for (let attempt = 0; ; attempt++) {
    const outcome = await insertServed(ctx, blocks)
    written = written.concat(outcome.written)
    const { missing } = outcome
    if (missing === undefined) return written
    if (attempt === maxRepairs || !blocks.some((served) => served.block.header.hash.equals(missing.hash))) throw missing
    // One repair for every missing reference of the batch, not one per refusal: a window read
    // while the upstream kept writing can lack many blocks at once.
    written = written.concat(await reach(ctx, namedOutside(ctx, blocks)))
  }
}

// The parents and neighbours that `blocks` name and that are not among them.
function namedOutside(ctx: IngestContext, blocks: readonly ServedBlock[]): Wanted {
  const inside = new Set(blocks.map((served) => mapKeyOfHash(served.block.header.hash)))
  const named: Wanted = new Map()
  for (const [chain, targets] of namedBy(ctx, blocks)) {
    for (const [key, target] of targets) if (!inside.has(key)) want(named, chain, target)
  }
  return named
}

// The targets that are neither collected nor stored.
async function unstored(ctx: IngestContext, targets: Wanted, collected: ReadonlyMap<string, ServedBlock>): Promise<Wanted> {
  const candidates: Array<[number, string, Target]> = []
  for (const [chain, chainTargets] of targets) {
    for (const [key, target] of chainTargets) if (!collected.has(key)) candidates.push([chain, key, target])
  }
  const refs = candidates.length === 0 ? [] : await ctx.store.getRefs(candidates.map(([, , target]) => target.hash))
  const missing: Wanted = new Map()
  candidates.forEach(([chain, , target], index) => {
    if (refs[index] === undefined) want(missing, chain, target)
  })
  return missing
}

// The parents and adjacents that `blocks` name (a genesis block names none); callers filter out those they hold.
function namedBy(ctx: IngestContext, blocks: ReadonlyMap<string, ServedBlock> | readonly ServedBlock[]): Wanted {
  const named: Wanted = new Map()
  for (const { block } of blocks.values()) {
    const { header } = block
    // A genesis block names genesis parent hashes, which are no blocks.
    if (header.height === genesisHeight(ctx.network, header.chainId)) continue
    want(named, header.chainId, { hash: header.parent, height: header.height - 1 })
    for (const [chain, hash] of header.adjacents) want(named, chain, { hash, height: header.height - 1 })
  }
  return named
}

// Every page of the branch below `targets` on `chain` down to the store's blocks of that chain,
// collected with the upstream that served each block.
async function fetchBranch(
  ctx: IngestContext,
  chain: number,
  targets: readonly Target[],
  round: number,
  collected: Map<string, ServedBlock>,
): Promise<void> {
  const lower = [ctx.store.heads().get(chain), ctx.store.cut().get(chain)].filter((head) => head !== undefined)
  const lowest = Math.min(...lower.map((head) => head.height), ...targets.map((target) => target.height))
  const minheight = Math.max(genesisHeight(ctx.network, chain), lowest - firstDepth * 2 ** round)
  const bounds = { lower: [...new Map(lower.map((head) => [mapKeyOfHash(head.hash), head.hash])).values()] }
  const chunks: Target[][] = []
  for (let at = 0; at < targets.length; at += maxBounds) chunks.push(targets.slice(at, at + maxBounds))
  // The upstreams that refused a cursor once: a chunk is asked again from its start once per upstream.
  const restarted = new Set<UpstreamEntry>()
  while (chunks.length > 0) {
    const upper = chunks.shift()!
    const followed = new Set<string>()
    let next: string | undefined
    do {
      const answer = await ctx.limiter.run(() =>
        ctx.pool.use(
          'branch query',
          async (api, entry): Promise<{ page: FetchedPage; entry: UpstreamEntry } | 'unknown' | 'restart'> => {
            try {
              const query = { minheight, limit: ctx.settings.pageSize, next }
              const page = await api.branchPage(chain, { ...bounds, upper: upper.map((target) => target.hash) }, query, ctx.signal)
              return { page: { ...page, next: followCursor(followed, page.next, entry.url) }, entry }
            } catch (error) {
              if (!(error instanceof WeftHttpError) || error.status !== 404) throw error
              // An upper bound the upstream does not know.
              if (next === undefined) return 'unknown'
              // After a failover, a cursor it does not know: once per upstream.
              if (restarted.has(entry)) throw cursorRefused(entry.url, next, error)
              restarted.add(entry)
              return 'restart'
            }
          },
          ctx.signal,
        ),
      )
      if (answer === 'restart') {
        chunks.push(upper)
        break
      }
      if (answer === 'unknown') {
        // Asked again one by one, so that one unknown bound does not hide the others; an unknown
        // single bound is skipped (another upstream announced it, or it is gone).
        if (upper.length > 1) for (const target of upper) chunks.push([target])
        break
      }
      for (const block of answer.page.blocks) collected.set(mapKeyOfHash(block.header.hash), { block, from: answer.entry })
      next = answer.page.next
    } while (next !== undefined)
  }
}
