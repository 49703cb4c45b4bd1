import type { Ingest } from '@weft/ingest'
import type { Context, Middleware } from 'koa'
import { ClientRequestError } from '../errors.js'
import { receiveBody } from '../http/request-body.js'
import type { ClientLimits } from './client-limits.js'
import { readGate } from './read-gate.js'
import type { ReadSlots } from './read-slots.js'

/** What admits a request: the client limits, the read slots, the body limit and, in upstream mode, the read gate's ingest and slots. */
export interface AdmissionParts {
  readonly limits: ClientLimits
  readonly readSlots: ReadSlots
  readonly bodyLimit: number
  readonly gate?: { readonly ingest: Ingest; readonly slots: number }
}

/**
 * The middleware that admit a request, after the error mapping (their refusals are answered by the
 * profile's table): a request target that parses, the client limits (connection cap, requests and streams per address), the body
 * of a POST received whole, in upstream mode the gate that holds requests while ingest is behind,
 * then the read slots for the chain reads under `base` (the event streams are neither gated nor
 * counted as requests; `/listen`, which waits for blocks, is neither gated nor holds a read slot). The gate comes after the body so that trickled uploads cannot hold its slots.
 */
export function admission(parts: AdmissionParts, base: string): Middleware[] {
  const streams = new Set(['header', 'block', 'transaction', 'transfer', 'event'].map((stream) => `${base}/${stream}/updates`))
  // The router serves a path with one trailing slash as the path without it: so are they counted.
  const isStreamPath = (path: string): boolean => streams.has(path.endsWith('/') ? path.slice(0, -1) : path)
  const isStream = (ctx: Context): boolean => ctx.method === 'GET' && isStreamPath(ctx.path)
  // `/listen` waits up to minutes for a block, like a stream: it holds neither a read slot nor a gate slot while it waits.
  const isWaitPath = (path: string): boolean => isStreamPath(path) || /\/pact\/api\/v1\/listen\/?$/.test(path)
  const isChainRead = (ctx: Context): boolean => ctx.path.startsWith(`${base}/`) && !isWaitPath(ctx.path)
  const bodyFirst: Middleware = async (ctx, next) => {
    if (ctx.method === 'POST') await receiveBody(ctx.req, parts.bodyLimit)
    await next()
  }
  const gate = parts.gate === undefined ? [] : [readGate(parts.gate.ingest, parts.gate.slots, isWaitPath)]
  return [readableTarget, parts.limits.middleware(isStream), bodyFirst, ...gate, parts.readSlots.middleware(isChainRead)]
}

// A request target that node's parser takes but that is no URL (an absolute form with a broken
// host, `http://[/info`): Koa's `ctx.path` throws on it, so it is refused before anything reads it.
const readableTarget: Middleware = async (ctx, next) => {
  try {
    void ctx.path
  } catch (error) {
    ctx.set('connection', 'close')
    throw new ClientRequestError(
      'MALFORMED_REQUEST',
      `Expected a request target that is a URL path, received ${JSON.stringify(ctx.url.slice(0, 100))}`,
      {
        cause: error,
      },
    )
  }
  await next()
}
