import type { Context, Middleware } from 'koa'
import type { NodeContext } from './node-context.js'
import { readGate } from './read-gate.js'
import { receiveBody } from './request-body.js'

/**
 * The middleware that admit a request, after the error mapping (their refusals are answered by the
 * profile's table): the client limits (connection cap, requests and streams per address), the body
 * of a POST received whole, in upstream mode the gate that holds requests while ingest is behind,
 * then the read slots for the chain reads under `base` (the event streams are neither gated nor
 * counted as requests). The gate comes after the body so that trickled uploads cannot hold its slots.
 */
export function admission(node: NodeContext, base: string): Middleware[] {
  const streams = new Set([`${base}/header/updates`, `${base}/block/updates`])
  const isStream = (ctx: Context): boolean => ctx.method === 'GET' && streams.has(ctx.path)
  const isChainRead = (ctx: Context): boolean => ctx.path.startsWith(`${base}/`) && !streams.has(ctx.path)
  const bodyFirst: Middleware = async (ctx, next) => {
    if (ctx.method === 'POST') await receiveBody(ctx.req, node.config.bodyLimit)
    await next()
  }
  const gate = node.ingest === undefined ? [] : [readGate(node.ingest, node.config.readSlots, streams)]
  return [node.limits.middleware(isStream), bodyFirst, ...gate, node.readSlots.middleware(isChainRead)]
}
