import type Router from '@koa/router'
import type { RouterContext } from '@koa/router'
import { encodeHash } from '@weft/hash-text'
import { hashParam } from './chain-routes.js'
import { InvalidBodyError, KeyNotFoundError, MethodNotAllowedError } from './errors.js'
import { negotiate } from './negotiation.js'
import type { NodeContext } from './node-context.js'
import { chainParam, writeJson } from './paging.js'
import { readJsonBody } from './request-body.js'

/** Most payloads served by one batch request; later entries are ignored. */
export const PAYLOAD_BATCH_CAP = 1000

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

// A batch body is an array of hashes, or {"heights": [...], "hashes": [...]}; heights are not needed to find payloads.
function batchHashes(body: unknown): Buffer[] {
  const list = Array.isArray(body)
    ? body
    : typeof body === 'object' && body !== null && Array.isArray((body as { hashes?: unknown }).hashes)
      ? (body as { hashes: unknown[] }).hashes
      : undefined
  if (list === undefined) throw new InvalidBodyError('Expected a JSON array of payload hashes, or {"heights": [...], "hashes": [...]}')
  return (list as unknown[]).slice(0, PAYLOAD_BATCH_CAP).map((entry) => {
    if (typeof entry !== 'string')
      throw new InvalidBodyError(`Expected every payload hash to be a string, received ${JSON.stringify(entry)?.slice(0, 80)}`)
    try {
      return hashParam(entry)
    } catch (error) {
      throw new InvalidBodyError(
        `Expected every payload hash to be 43 base64url characters, received ${JSON.stringify(entry.slice(0, 80))}`,
        { cause: error },
      )
    }
  })
}

function joinArray(items: readonly Buffer[]): Buffer {
  const parts: Buffer[] = [Buffer.from('[')]
  items.forEach((item, index) => {
    if (index > 0) parts.push(Buffer.from(','))
    parts.push(item)
  })
  parts.push(Buffer.from(']'))
  return Buffer.concat(parts)
}

/** Payload endpoints: looked up node-wide, whatever chain the path names. */
export function registerPayloadRoutes(router: Router, node: NodeContext, base: string): void {
  const single = (withOutputs: boolean) => async (ctx: RouterContext) => {
    const hashText = ctx.params.payloadHash ?? ''
    if (hashText === 'batch' && !withOutputs) throw new MethodNotAllowedError(ctx.method, ['POST', 'OPTIONS'])
    negotiate(ctx.get('accept') || undefined)
    chainParam(node, ctx, ctx.params.chain)
    const hash = hashParam(hashText)
    const bytes = await node.store.getPayloadJson(hash)
    if (bytes === undefined) throw new KeyNotFoundError('PAYLOAD_NOT_FOUND', encodeHash(hash), 'Payload')
    writeJson(ctx, withOutputs ? bytes : payloadWithoutOutputs(bytes))
  }
  const batch = (withOutputs: boolean) => async (ctx: RouterContext) => {
    negotiate(ctx.get('accept') || undefined)
    chainParam(node, ctx, ctx.params.chain)
    const hashes = batchHashes(await readJsonBody(ctx.req, node.config.bodyLimit))
    const found = await Promise.all(hashes.map((hash) => node.store.getPayloadJson(hash)))
    const items = found
      .filter((bytes): bytes is Buffer => bytes !== undefined)
      .map((bytes) => (withOutputs ? bytes : payloadWithoutOutputs(bytes)))
    writeJson(ctx, joinArray(items))
  }
  router.get(`${base}/chain/:chain/payload/:payloadHash`, single(false))
  router.get(`${base}/chain/:chain/payload/:payloadHash/outputs`, single(true))
  router.post(`${base}/chain/:chain/payload/batch`, batch(false))
  router.post(`${base}/chain/:chain/payload/outputs/batch`, batch(true))
}
