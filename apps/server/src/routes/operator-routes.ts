import type Router from '@koa/router'
import { negotiate } from '../http/negotiation.js'
import { writeJson } from '../http/responses.js'
import type { NodeContext } from '../node-context.js'
import type { ChainActivity } from '../operator/chain-activity.js'
import type { NodeMetrics } from '../operator/metrics.js'
import { nodeStatus } from '../operator/node-status.js'
import { statusPage, statusPagePolicy } from '../operator/status-page.js'

/** What the operator's routes read besides the node: its metrics and its chain activity. */
export interface OperatorParts {
  readonly metrics: NodeMetrics
  readonly activity: ChainActivity
}

/** `/metrics` (Prometheus text), `/status` (the status page's JSON) and `/` (the status page), at the host root. */
export function registerOperatorRoutes(router: Router, node: NodeContext, parts: OperatorParts): void {
  router.get('/metrics', async (ctx) => {
    const text = await parts.metrics.render()
    ctx.set('content-type', parts.metrics.contentType)
    ctx.body = Buffer.from(text)
  })
  router.get('/status', (ctx) => {
    negotiate(ctx.get('accept') || undefined)
    writeJson(ctx, Buffer.from(JSON.stringify(nodeStatus(node, parts.activity))))
  })
  router.get('/', (ctx) => {
    ctx.set('content-type', 'text/html;charset=utf-8')
    ctx.set('content-security-policy', statusPagePolicy)
    ctx.set('cache-control', 'no-store')
    ctx.body = Buffer.from(statusPage(nodeStatus(node, parts.activity)))
  })
}
