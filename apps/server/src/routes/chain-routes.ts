import type Router from '@koa/router'
import type { RouterContext } from '@koa/router'
import { headerJsonForProfile } from '@weft/block'
import { encodeHash } from '@weft/hash-text'
import { UnknownBoundError } from '@weft/traversal'
import { MethodNotAllowedError } from '../errors.js'
import { finalHeight, freshnessAt, setFreshness, varyOnAccept } from '../http/caching.js'
import { contentTypes, negotiate, type Representation } from '../http/negotiation.js'
import { readJsonBody } from '../http/request-body.js'
import { writeJson, writePage } from '../http/responses.js'
import { readAscendingPage } from '../read/ascending-pages.js'
import { type ParsedBounds, parseBranchBounds } from '../read/body-checks.js'
import type { BranchContinuations } from '../read/branch-continuations.js'
import { type BranchPage, readBranchPage } from '../read/branch-pages.js'
import { type PageQuery, parsePageQuery } from '../read/page-query.js'
import { chainParam, hashParam } from '../read/path-params.js'
import { ascendingPageBound, type ChainReads, type StoredPage } from '../read/stored-page.js'

/** Cap and default of block and header pages. */
export const BLOCK_PAGE_CAP = 360
/** Cap and default of hash pages. */
export const HASH_PAGE_CAP = 4096

const headerOffers: readonly Representation[] = ['json', 'header-object']

function quoted(text: string): Buffer {
  return Buffer.from(JSON.stringify(text))
}

// The store returned a hash from its own index, so the record is there unless the store is corrupt.
function present<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('Expected a stored record for a hash the store itself returned')
  return value
}

/** What the chain routes touch besides the store and the profile's rules. */
export interface ChainRouteParts extends ChainReads {
  /** The chain ids of the network's newest graph: the only valid `{chain}` path segments. */
  readonly chains: ReadonlySet<number>
  /** Branch walks kept for the request that continues them. */
  readonly branchWalks: BranchContinuations
  /** Bytes a branch body may have. */
  readonly bodyLimit: number
  /** Heights below every head of the cut past which a page is final (cached as immutable). */
  readonly finalDepth: number
}

/** Block, header and hash collections of a chain: GET pages and POST branches. */
export function registerChainRoutes(router: Router, parts: ChainRouteParts, base: string): void {
  const { store, chains, branchWalks, bodyLimit, finalDepth } = parts
  const profile = parts.rules.name
  const forProfile = (json: Buffer): Buffer => headerJsonForProfile(json, profile)
  // The checks every page request makes, in the contract's order: Accept, chain id, query (then the body).
  const pageRequest = (ctx: RouterContext, offers?: readonly Representation[]) => {
    const representation = negotiate(ctx.get('accept') || undefined, offers)
    const chain = chainParam(chains, ctx.path, ctx.params.chain)
    const query: PageQuery = parsePageQuery(ctx.query)
    return { representation, chain, query }
  }
  // A page is final once every height it depends on lies finalDepth below every head; a branch, once all its bounds are stored.
  const ascendingFreshness = (ctx: RouterContext, page: StoredPage<{ height: number }>, query: PageQuery) =>
    setFreshness(ctx, freshnessAt(ascendingPageBound(page, query), finalHeight(store, finalDepth)))
  const branchFreshness = (ctx: RouterContext, page: BranchPage) => setFreshness(ctx, page.final ? 'immutable' : 'recent')
  const bodyBounds = async (ctx: RouterContext): Promise<ParsedBounds> => parseBranchBounds(await readJsonBody(ctx.req, bodyLimit))

  router.get(`${base}/chain/:chain/block`, async (ctx) => {
    const { chain, query } = pageRequest(ctx)
    const page = await readAscendingPage(parts, chain, query, BLOCK_PAGE_CAP)
    ascendingFreshness(ctx, page, query)
    // Full-block bytes start with the header, so the first version key is the header's.
    writePage(ctx, (await store.readRangeBlocks(page.items)).map(forProfile), page.next)
  })

  router.post(`${base}/chain/:chain/block/branch`, async (ctx) => {
    const { chain, query } = pageRequest(ctx)
    const page = await readBranchPage(parts, branchWalks, chain, query, await bodyBounds(ctx), BLOCK_PAGE_CAP)
    branchFreshness(ctx, page)
    const blocks = await store.getBlocksJson(page.items.map((ref) => ref.hash))
    writePage(
      ctx,
      blocks.map((block) => forProfile(present(block))),
      page.next,
    )
  })

  router.get(`${base}/chain/:chain/header`, async (ctx) => {
    varyOnAccept(ctx)
    const { representation, chain, query } = pageRequest(ctx, headerOffers)
    const page = await readAscendingPage(parts, chain, query, BLOCK_PAGE_CAP)
    ascendingFreshness(ctx, page, query)
    const items = page.items.map((item) =>
      representation === 'header-object' ? forProfile(item.headerJson) : quoted(item.headerBinary.toString('base64url')),
    )
    writePage(ctx, items, page.next, contentTypes[representation])
  })

  router.post(`${base}/chain/:chain/header/branch`, async (ctx) => {
    varyOnAccept(ctx)
    const { representation, chain, query } = pageRequest(ctx, headerOffers)
    const page = await readBranchPage(parts, branchWalks, chain, query, await bodyBounds(ctx), BLOCK_PAGE_CAP)
    branchFreshness(ctx, page)
    const items = await Promise.all(
      page.items.map(async (ref) => {
        if (representation === 'header-object') return forProfile(present(await store.getStoredHeader(ref.hash)).headerJson)
        return quoted(present(await store.getHeaderBinary(ref.hash)).toString('base64url'))
      }),
    )
    writePage(ctx, items, page.next, contentTypes[representation])
  })

  router.get(`${base}/chain/:chain/header/:hash`, async (ctx) => {
    const hashText = ctx.params.hash ?? ''
    // `header/branch` is a POST-only path that the `:hash` pattern also matches.
    if (hashText === 'branch') throw new MethodNotAllowedError(ctx.method, ['POST', 'OPTIONS'])
    varyOnAccept(ctx)
    const representation = negotiate(ctx.get('accept') || undefined, ['json', 'header-object', 'binary'])
    const chain = chainParam(chains, ctx.path, ctx.params.chain)
    const hash = hashParam(hashText)
    const stored = await store.getStoredHeader(hash)
    // BLOCK_NOT_FOUND has one owner, @weft/traversal's UnknownBoundError; its message names an upper bound.
    if (stored === undefined || stored.header.chainId !== chain) throw new UnknownBoundError(hash, chain)
    // A header named by its hash never changes.
    setFreshness(ctx, 'immutable')
    if (representation === 'header-object') writeJson(ctx, forProfile(stored.headerJson), contentTypes['header-object'])
    else if (representation === 'binary') writeJson(ctx, present(await store.getHeaderBinary(hash)), contentTypes.binary)
    else writeJson(ctx, quoted(present(await store.getHeaderBinary(hash)).toString('base64url')))
  })

  router.get(`${base}/chain/:chain/hash`, async (ctx) => {
    const { chain, query } = pageRequest(ctx)
    const page = await readAscendingPage(parts, chain, query, HASH_PAGE_CAP)
    ascendingFreshness(ctx, page, query)
    writePage(
      ctx,
      page.items.map((item) => quoted(encodeHash(item.hash))),
      page.next,
    )
  })

  router.post(`${base}/chain/:chain/hash/branch`, async (ctx) => {
    const { chain, query } = pageRequest(ctx)
    const page = await readBranchPage(parts, branchWalks, chain, query, await bodyBounds(ctx), HASH_PAGE_CAP)
    branchFreshness(ctx, page)
    writePage(
      ctx,
      page.items.map((ref) => quoted(encodeHash(ref.hash))),
      page.next,
    )
  })
}
