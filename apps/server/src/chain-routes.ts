import type Router from '@koa/router'
import { headerJsonForProfile } from '@weft/block'
import { decodeHash, encodeHash, isHashText } from '@weft/hash-text'
import { InvalidHashParameterError, KeyNotFoundError, MethodNotAllowedError } from './errors.js'
import { contentTypes, negotiate, type Representation } from './negotiation.js'
import type { NodeContext } from './node-context.js'
import { chainParam, parseBounds, readAscendingPage, readBranchPage, writeJson, writePage } from './paging.js'
import { parsePageQuery } from './query.js'
import { readJsonBody } from './request-body.js'

/** Cap and default of block and header pages. */
export const BLOCK_PAGE_CAP = 360
/** Cap and default of hash pages. */
export const HASH_PAGE_CAP = 4096

const headerOffers: readonly Representation[] = ['json', 'header-object']

function quoted(text: string): Buffer {
  return Buffer.from(JSON.stringify(text))
}

/** Block, header and hash collections of a chain: GET pages and POST branches. */
export function registerChainRoutes(router: Router, node: NodeContext, base: string): void {
  const profile = node.rules.name
  const forProfile = (json: Buffer): Buffer => headerJsonForProfile(json, profile)

  router.get(`${base}/chain/:chain/block`, async (ctx) => {
    negotiate(ctx.get('accept') || undefined)
    const chain = chainParam(node, ctx, ctx.params.chain)
    const query = parsePageQuery(ctx.query)
    const page = await readAscendingPage(node, chain, query, BLOCK_PAGE_CAP)
    // Full-block bytes start with the header, so the first version key is the header's.
    const blocks = (await node.store.readRangeBlocks(page.items)).map(forProfile)
    writePage(node, ctx, blocks, page.next)
  })

  router.post(`${base}/chain/:chain/block/branch`, async (ctx) => {
    negotiate(ctx.get('accept') || undefined)
    const chain = chainParam(node, ctx, ctx.params.chain)
    const query = parsePageQuery(ctx.query)
    const bounds = parseBounds(await readJsonBody(ctx.req, node.config.bodyLimit))
    const page = await readBranchPage(node, chain, query, bounds, BLOCK_PAGE_CAP)
    const blocks = await node.store.getBlocksJson(page.items.map((ref) => ref.hash))
    writePage(
      node,
      ctx,
      blocks.map((block) => forProfile(present(block))),
      page.next,
    )
  })

  router.get(`${base}/chain/:chain/header`, async (ctx) => {
    const representation = negotiate(ctx.get('accept') || undefined, headerOffers)
    const chain = chainParam(node, ctx, ctx.params.chain)
    const query = parsePageQuery(ctx.query)
    const page = await readAscendingPage(node, chain, query, BLOCK_PAGE_CAP)
    const items = page.items.map((item) =>
      representation === 'header-object' ? forProfile(item.headerJson) : quoted(item.headerBinary.toString('base64url')),
    )
    writePage(node, ctx, items, page.next, contentTypes[representation])
  })

  router.post(`${base}/chain/:chain/header/branch`, async (ctx) => {
    const representation = negotiate(ctx.get('accept') || undefined, headerOffers)
    const chain = chainParam(node, ctx, ctx.params.chain)
    const query = parsePageQuery(ctx.query)
    const bounds = parseBounds(await readJsonBody(ctx.req, node.config.bodyLimit))
    const page = await readBranchPage(node, chain, query, bounds, BLOCK_PAGE_CAP)
    const items = await Promise.all(
      page.items.map(async (ref) => {
        if (representation === 'header-object') return forProfile(present(await node.store.getStoredHeader(ref.hash)).headerJson)
        return quoted(present(await node.store.getHeaderBinary(ref.hash)).toString('base64url'))
      }),
    )
    writePage(node, ctx, items, page.next, contentTypes[representation])
  })

  router.get(`${base}/chain/:chain/header/:hash`, async (ctx) => {
    const hashText = ctx.params.hash ?? ''
    // `header/branch` is a POST-only path that the `:hash` pattern also matches.
    if (hashText === 'branch') throw new MethodNotAllowedError(ctx.method, ['POST', 'OPTIONS'])
    const representation = negotiate(ctx.get('accept') || undefined, ['json', 'header-object', 'binary'])
    const chain = chainParam(node, ctx, ctx.params.chain)
    const hash = hashParam(hashText)
    const stored = await node.store.getStoredHeader(hash)
    if (stored === undefined || stored.header.chainId !== chain) throw new KeyNotFoundError('BLOCK_NOT_FOUND', encodeHash(hash), 'Block')
    if (representation === 'header-object') writeJson(ctx, forProfile(stored.headerJson), contentTypes['header-object'])
    else if (representation === 'binary') writeJson(ctx, present(await node.store.getHeaderBinary(hash)), contentTypes.binary)
    else writeJson(ctx, quoted(present(await node.store.getHeaderBinary(hash)).toString('base64url')))
  })

  router.get(`${base}/chain/:chain/hash`, async (ctx) => {
    negotiate(ctx.get('accept') || undefined)
    const chain = chainParam(node, ctx, ctx.params.chain)
    const query = parsePageQuery(ctx.query)
    const page = await readAscendingPage(node, chain, query, HASH_PAGE_CAP)
    writePage(
      node,
      ctx,
      page.items.map((item) => quoted(encodeHash(item.hash))),
      page.next,
    )
  })

  router.post(`${base}/chain/:chain/hash/branch`, async (ctx) => {
    negotiate(ctx.get('accept') || undefined)
    const chain = chainParam(node, ctx, ctx.params.chain)
    const query = parsePageQuery(ctx.query)
    const bounds = parseBounds(await readJsonBody(ctx.req, node.config.bodyLimit))
    const page = await readBranchPage(node, chain, query, bounds, HASH_PAGE_CAP)
    writePage(
      node,
      ctx,
      page.items.map((ref) => quoted(encodeHash(ref.hash))),
      page.next,
    )
  })
}

/** Decodes a hash path segment (400 when malformed). */
export function hashParam(text: string): Buffer {
  if (!isHashText(text)) throw new InvalidHashParameterError(text)
  return decodeHash(text)
}

// The store returned a hash from its own index, so the record is there unless the store is corrupt.
function present<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('Expected a stored record for a hash the store itself returned')
  return value
}
