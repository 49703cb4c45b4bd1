import type Router from '@koa/router'
import { negotiate } from '../http/negotiation.js'
import { writeJson, writeText } from '../http/responses.js'
import type { NodeContext } from '../node-context.js'
import { cutText, readCutHeads } from '../read/cut-body.js'
import { nodeInfoText } from '../read/info-body.js'
import { parseCutQuery } from '../read/page-query.js'

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
