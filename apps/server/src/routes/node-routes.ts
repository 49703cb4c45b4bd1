import type Router from '@koa/router'
import type { ChainStore } from '@weft/store'
import { setFreshness } from '../http/caching.js'
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

/** /health-check and /info at the host root, /cut under the base (`no-cache`: it moves with every block; its ETag revalidates it). */
export function registerNodeRoutes(router: Router, parts: NodeRouteParts, base: string): void {
  // Liveness is this node's own answer: a cache must never give it for the node.
  router.get('/health-check', (ctx) => {
    setFreshness(ctx, 'private')
    writeText(ctx, HEALTH_TEXT)
  })
  router.get('/info', (ctx) => {
    negotiate(ctx.get('accept') || undefined)
    setFreshness(ctx, 'recent')
    writeJson(ctx, Buffer.from(nodeInfoText(parts, parts.store.cut())))
  })
  router.get(`${base}/cut`, async (ctx) => {
    negotiate(ctx.get('accept') || undefined)
    const maxheight = parseCutQuery(ctx.query)
    writeJson(ctx, Buffer.from(cutText(parts.rules, parts.network, await readCutHeads(parts.store, maxheight))))
  })
}
