import type Router from '@koa/router'
import { cutText, readCutHeads } from './cut-body.js'
import { nodeInfoText } from './info-body.js'
import { negotiate } from './negotiation.js'
import type { NodeContext } from './node-context.js'
import { parseCutQuery } from './page-query.js'
import { writeJson, writeText } from './responses.js'

/** Body of GET /health-check. */
export const HEALTH_TEXT = 'Health check OK.\n'

/** /health-check and /info at the host root, /cut under the base. */
export function registerNodeRoutes(router: Router, node: NodeContext, base: string): void {
  router.get('/health-check', (ctx) => writeText(ctx, HEALTH_TEXT))
  router.get('/info', (ctx) => {
    negotiate(ctx.get('accept') || undefined)
    writeJson(ctx, Buffer.from(nodeInfoText(node, node.store.cut())))
  })
  router.get(`${base}/cut`, async (ctx) => {
    negotiate(ctx.get('accept') || undefined)
    const maxheight = parseCutQuery(ctx.query)
    writeJson(ctx, Buffer.from(cutText(node.rules, node.network, await readCutHeads(node, maxheight))))
  })
}
