import type Router from '@koa/router'
import type { RouterContext } from '@koa/router'
import type { ChainStore } from '@weft/store'
import { MethodNotAllowedError, PayloadNotFoundError } from '../errors.js'
import { setFreshness } from '../http/caching.js'
import { negotiate } from '../http/negotiation.js'
import { readJsonBody } from '../http/request-body.js'
import { writeJson, writeJsonArray } from '../http/responses.js'
import { parsePayloadBatch } from '../read/body-checks.js'
import { chainParam, hashParam } from '../read/path-params.js'

interface StoredPayload {
  transactions: Array<[string, string]>
  minerData: string
  transactionsHash: string
  outputsHash: string
  payloadHash: string
}

/** The payload without outputs, keys in the real node's order, from the stored payload-with-outputs bytes. */
export function payloadWithoutOutputs(withOutputs: Buffer): Buffer {
  const payload = JSON.parse(withOutputs.toString('utf8')) as StoredPayload
  return Buffer.from(
    JSON.stringify({
      transactions: payload.transactions.map(([transaction]) => transaction),
      minerData: payload.minerData,
      transactionsHash: payload.transactionsHash,
      outputsHash: payload.outputsHash,
      payloadHash: payload.payloadHash,
    }),
  )
}

/** What the payload routes touch: the store, the network's chain ids (`{chain}` must name one) and the body limit. */
export interface PayloadRouteParts {
  readonly store: ChainStore
  readonly chains: ReadonlySet<number>
  readonly bodyLimit: number
}

/** Payload endpoints: looked up node-wide, whatever chain the path names. */
export function registerPayloadRoutes(router: Router, parts: PayloadRouteParts, base: string): void {
  const { store, chains, bodyLimit } = parts
  const single = (withOutputs: boolean) => async (ctx: RouterContext) => {
    const hashText = ctx.params.payloadHash ?? ''
    if (hashText === 'batch' && !withOutputs) throw new MethodNotAllowedError(ctx.method, ['POST', 'OPTIONS'])
    negotiate(ctx.get('accept') || undefined)
    chainParam(chains, ctx.path, ctx.params.chain)
    const hash = hashParam(hashText)
    const bytes = await store.getPayloadJson(hash)
    if (bytes === undefined) throw new PayloadNotFoundError(hash)
    // A payload named by its hash never changes.
    setFreshness(ctx, 'immutable')
    writeJson(ctx, withOutputs ? bytes : payloadWithoutOutputs(bytes))
  }
  const batch = (withOutputs: boolean) => async (ctx: RouterContext) => {
    negotiate(ctx.get('accept') || undefined)
    chainParam(chains, ctx.path, ctx.params.chain)
    const hashes = parsePayloadBatch(await readJsonBody(ctx.req, bodyLimit))
    const found = await Promise.all(hashes.map((hash) => store.getPayloadJson(hash)))
    // Unknown hashes are left out, until they are stored: only an answer that has them all is final.
    setFreshness(ctx, found.every((bytes) => bytes !== undefined) ? 'immutable' : 'recent')
    const items = found
      .filter((bytes): bytes is Buffer => bytes !== undefined)
      .map((bytes) => (withOutputs ? bytes : payloadWithoutOutputs(bytes)))
    writeJsonArray(ctx, items)
  }
  router.get(`${base}/chain/:chain/payload/:payloadHash`, single(false))
  router.get(`${base}/chain/:chain/payload/:payloadHash/outputs`, single(true))
  router.post(`${base}/chain/:chain/payload/batch`, batch(false))
  router.post(`${base}/chain/:chain/payload/outputs/batch`, batch(true))
}
