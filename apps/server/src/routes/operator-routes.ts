import type Router from '@koa/router'
import type { ChainStore } from '@weft/store'
import { setFreshness } from '../http/caching.js'
import { negotiate } from '../http/negotiation.js'
import { writeJson } from '../http/responses.js'
import type { NodeMetrics } from '../operator/metrics.js'
import { searchNode } from '../operator/node-search.js'
import type { NodeStatus } from '../operator/node-status.js'
import { statusPage, statusPagePolicy } from '../operator/status-page.js'

/** What the operator's routes read: the node's metrics, its status of the moment, and the store its search reads. */
export interface OperatorRouteParts {
  readonly metrics: NodeMetrics
  readonly store: ChainStore
  /** The status page's figures now. */
  status(): NodeStatus
}

/**
 * `/metrics` (Prometheus text), `/status` (the status page's JSON), `/search` (its search box's
 * answers) and `/` (the status page), at the host root.
 */
export function registerOperatorRoutes(router: Router, parts: OperatorRouteParts): void {
  router.get('/metrics', async (ctx) => {
    const text = await parts.metrics.render()
    setFreshness(ctx, 'private')
    ctx.set('content-type', parts.metrics.contentType)
    ctx.body = Buffer.from(text)
  })
  router.get('/status', (ctx) => {
    negotiate(ctx.get('accept') || undefined)
    setFreshness(ctx, 'private')
    writeJson(ctx, Buffer.from(JSON.stringify(parts.status())))
  })
  router.get('/search', async (ctx) => {
    negotiate(ctx.get('accept') || undefined)
    const answer = await searchNode(parts.store, ctx.query.q)
    setFreshness(ctx, 'private')
    writeJson(ctx, Buffer.from(JSON.stringify(answer)))
  })
  router.get('/', (ctx) => {
    ctx.set('content-type', 'text/html;charset=utf-8')
    ctx.set('content-security-policy', statusPagePolicy)
    setFreshness(ctx, 'private')
    ctx.body = Buffer.from(statusPage(parts.status()))
  })
}
