import type Router from '@koa/router'
import type { ChainStore } from '@weft/store'
import { negotiate } from '../http/negotiation.js'
import { writeJson, writeText } from '../http/responses.js'
import { cutText, readCutHeads } from '../read/cut-body.js'
import { type InfoFacts, nodeInfoText } from '../read/info-body.js'
import { parseCutQuery } from '../read/page-query.js'

/** Body of GET /health-check. */
export const HEALTH_TEXT = 'Health check OK.\n'

/** What the node routes read: the store's cut, and what /info says beside it. */
export interface NodeRouteParts extends InfoFacts {
  readonly store: ChainStore
}

/** /health-check and /info at the host root, /cut under the base. */
export function registerNodeRoutes(router: Router, parts: NodeRouteParts, base: string): void {
  router.get('/health-check', (ctx) => writeText(ctx, HEALTH_TEXT))
  router.get('/info', (ctx) => {
    negotiate(ctx.get('accept') || undefined)
    writeJson(ctx, Buffer.from(nodeInfoText(parts, parts.store.cut())))
  })
  router.get(`${base}/cut`, async (ctx) => {
    negotiate(ctx.get('accept') || undefined)
    const maxheight = parseCutQuery(ctx.query)
    writeJson(ctx, Buffer.from(cutText(parts.rules, parts.network, await readCutHeads(parts.store, maxheight))))
  })
}
