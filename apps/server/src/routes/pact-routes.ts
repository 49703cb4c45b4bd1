import type Router from '@koa/router'
import type { RouterContext } from '@koa/router'
import type { TransactionIndex } from '@weft/store'
import { IndexCatchingUpError, ListenTimeoutError, NoPactStateError } from '../errors.js'
import { negotiate } from '../http/negotiation.js'
import { readJsonBody } from '../http/request-body.js'
import { writeJson } from '../http/responses.js'
import type { BlockWaits } from '../pact/block-waits.js'
import { withBlockMetadata } from '../pact/command-results.js'
import { inLegacyOrder } from '../pact/legacy-order.js'
import { isFullRequestKey, parseConfirmationDepth, parseListenBody, parsePollBody } from '../pact/pact-requests.js'
import { chainParam } from '../read/path-params.js'

/** What the Pact routes touch: the transaction index, the waits for new blocks, the chain ids, the body limit and `/listen`'s time. */
export interface PactRouteParts {
  readonly index: TransactionIndex
  readonly blockWaits: BlockWaits
  readonly chains: ReadonlySet<number>
  readonly bodyLimit: number
  /** Seconds `/listen` waits (the node's 180). */
  readonly listenTimeout: number
}

/** Lookups of one request at a time per request, a few at once: a body of thousands of keys reads in turn. */
const LOOKUPS_AT_ONCE = 16

/**
 * The command result of `key` on `chain`'s winning branch, at least `depth` blocks below the
 * chain's head (`confirmationDepth`: the node reads Pact state at the head's Nth parent), with the
 * metadata the node adds; undefined when no such copy is stored. A key not found while the index
 * catches up on the chain is no answer: the copy may be in a block not indexed yet.
 */
async function commandResult(index: TransactionIndex, chain: number, key: string, depth: number): Promise<string | undefined> {
  if (!isFullRequestKey(key)) return undefined
  const { copies, complete } = await index.transaction(key, { chain })
  const copy = copies.find(({ block }) => block.canonical && block.depth >= depth)
  if (copy !== undefined) return withBlockMetadata(copy.result, copy.block)
  if (!complete) {
    const status = index.status()
    throw new IndexCatchingUpError(`request key ${key}`, status.state === 'catching-up' ? status.progress : 0)
  }
  return undefined
}

// Refused with NO_PACT_STATE: every endpoint of chainweb-node 3.2's Pact service that needs its Pact database or mempool.
const statefulEndpoints = ['pact/api/v1/send', 'pact/api/v1/local', 'pact/spv', 'pact/spv2', 'pact/spv/eth'] as const

/**
 * chainweb-node's read-only Pact service, from the transaction index: `/poll` and `/listen` answer
 * as release 3.2 does (winning branch only, the block's metadata in each result). The endpoints
 * that need Pact state answer NO_PACT_STATE.
 */
export function registerPactRoutes(router: Router, parts: PactRouteParts, base: string): void {
  const { index, blockWaits, chains, bodyLimit, listenTimeout } = parts
  const chainOf = (ctx: RouterContext): number => {
    negotiate(ctx.get('accept') || undefined)
    return chainParam(chains, ctx.path, ctx.params.chain)
  }

  router.post(`${base}/chain/:chain/pact/api/v1/poll`, async (ctx) => {
    const chain = chainOf(ctx)
    const depth = parseConfirmationDepth(ctx.query.confirmationDepth) ?? 0
    const keys = parsePollBody(await readJsonBody(ctx.req, bodyLimit))
    const found = new Map<string, string>()
    for (let start = 0; start < keys.length; start += LOOKUPS_AT_ONCE) {
      const batch = keys.slice(start, start + LOOKUPS_AT_ONCE)
      const results = await Promise.all(batch.map((key) => commandResult(index, chain, key, depth)))
      batch.forEach((key, at) => {
        const result = results[at]
        if (result !== undefined) found.set(key, result)
      })
    }
    // The node's answer is a Pact legacy map: its keys in that map's order, not the request's.
    const members = inLegacyOrder([...found.keys()]).map((key) => `${JSON.stringify(key)}:${found.get(key)}`)
    writeJson(ctx, Buffer.from(`{${members.join(',')}}`))
  })

  router.post(`${base}/chain/:chain/pact/api/v1/listen`, async (ctx) => {
    const chain = chainOf(ctx)
    const key = parseListenBody(await readJsonBody(ctx.req, bodyLimit))
    const deadline = Date.now() + listenTimeout * 1000
    for (;;) {
      const result = await commandResult(index, chain, key, 0)
      if (result !== undefined) return writeJson(ctx, Buffer.from(result))
      const end = await blockWaits.next(chain, deadline - Date.now())
      if (end !== 'block') throw new ListenTimeoutError(key, listenTimeout)
    }
  })

  for (const endpoint of statefulEndpoints)
    router.post(`${base}/chain/:chain/${endpoint}`, async (ctx) => {
      chainOf(ctx)
      throw new NoPactStateError(`POST ${base}/chain/{chain}/${endpoint}`)
    })
}
