import Router from '@koa/router'
import type { Middleware } from 'koa'
import Koa from 'koa'
import type { Logger } from 'pino'
import { MethodNotAllowedError, RouteNotFoundError } from './errors.js'
import { caching, setFreshness } from './http/caching.js'
import { commonHeaders } from './http/common-headers.js'
import { errorMapping } from './http/error-mapping.js'
import { negotiate } from './http/negotiation.js'
import { requestLog } from './http/request-log.js'
import { writeEmpty, writeJson } from './http/responses.js'
import type { NodeContext } from './node-context.js'
import { openApiDocument } from './openapi/openapi.js'
import type { ChainActivity } from './operator/chain-activity.js'
import type { NodeMetrics } from './operator/metrics.js'
import { nodeStatus } from './operator/node-status.js'
import { basePath } from './profile/profiles.js'
import { chainParam } from './read/path-params.js'
import { registerChainRoutes } from './routes/chain-routes.js'
import { registerChainwebDataRoutes } from './routes/chainweb-data-routes.js'
import { registerIndexRoutes } from './routes/index-routes.js'
import { registerNodeRoutes } from './routes/node-routes.js'
import { registerOperatorRoutes } from './routes/operator-routes.js'
import { registerPactRoutes } from './routes/pact-routes.js'
import { registerPayloadRoutes } from './routes/payload-routes.js'
import { registerReadyRoute } from './routes/ready-route.js'
import { registerUpdateRoutes } from './streams/update-streams.js'
import { admission } from './traffic/admission.js'

const methodOrder = ['GET', 'HEAD', 'POST', 'OPTIONS']

// Answers what no route answered: OPTIONS (CORS preflight included), 405 and 404, from the
// layers the router matched by path alone (it leaves them on ctx.matched). It runs after the
// router, not before it, so that a request that has a route is matched once, not twice. A chain id
// the network lacks names nothing, whatever the method: 404, as a GET of it answers.
function routeFallback(chains: ReadonlySet<number>, base: string): Middleware {
  const chainPrefix = `${base}/chain/`
  return (ctx) => {
    const matched = (ctx as { matched?: Array<{ methods: string[] }> }).matched ?? []
    const methods = new Set(matched.flatMap((layer) => layer.methods))
    if (methods.size === 0) throw new RouteNotFoundError(ctx.path)
    if (ctx.path.startsWith(chainPrefix)) chainParam(chains, ctx.path, ctx.path.slice(chainPrefix.length).split('/')[0])
    const allowed = methodOrder.filter((method) => methods.has(method) || method === 'OPTIONS')
    if (ctx.method !== 'OPTIONS') throw new MethodNotAllowedError(ctx.method, allowed)
    writeEmpty(ctx, 204)
    ctx.set('allow', allowed.join(', '))
    ctx.set('access-control-allow-methods', allowed.join(', '))
    ctx.set('access-control-allow-headers', ctx.get('access-control-request-headers') || 'accept, content-type')
    ctx.set('access-control-max-age', '86400')
  }
}

/** What the operator's routes are made of, when the node has them: its metrics and its chain activity. */
export interface OperatorParts {
  readonly metrics: NodeMetrics
  readonly activity: ChainActivity
}

/**
 * The Koa application of a node: middleware in order, then every route of the profile (and the
 * operator's, when given). Each room is handed the parts of the node it touches, no more.
 */
export function createApp(node: NodeContext, logger: Logger, operator?: OperatorParts): Koa {
  const app = new Koa()
  const router = new Router()
  const { store, network, rules, nodeVersion, chains, branchWalks, config } = node
  const { bodyLimit } = config
  const base = basePath(rules, network.name)
  registerNodeRoutes(router, { store, network, rules, release: node.release, serviceDate: node.serviceDate }, base)
  registerChainRoutes(router, { store, rules, chains, branchWalks, bodyLimit, finalDepth: config.finalDepth }, base)
  registerPayloadRoutes(router, { store, chains, bodyLimit }, base)
  registerUpdateRoutes(
    router,
    { headerUpdates: node.headerUpdates, blockUpdates: node.blockUpdates, announcements: node.announcements },
    { store: node.store, rules: node.rules, depths: node.depthFeeds },
    base,
  )
  registerReadyRoute(router, node.ingest, node.store)
  if (rules.pactService)
    registerPactRoutes(
      router,
      { index: store.index, blockWaits: node.blockWaits, chains, bodyLimit, listenTimeout: config.listenTimeout },
      base,
    )
  if (rules.chainwebData) registerChainwebDataRoutes(router, { index: store.index, chains })
  // After the update streams: `{base}/transaction/updates` is theirs, not a request key.
  if (rules.indexResources) registerIndexRoutes(router, { index: store.index, chains }, base)
  const openApi = Buffer.from(JSON.stringify(openApiDocument(rules, network.name, nodeVersion)))
  router.get('/openapi.json', (ctx) => {
    negotiate(ctx.get('accept') || undefined)
    setFreshness(ctx, 'recent')
    writeJson(ctx, openApi)
  })
  if (operator !== undefined) {
    const facts = { store, rules, nodeVersion, source: config.devnet ? 'devnet' : 'store' } as const
    registerOperatorRoutes(router, { metrics: operator.metrics, store, status: () => nodeStatus(facts, operator.activity) })
    app.use(operator.metrics.middleware())
  }
  app.use(node.requests.middleware())
  app.use(requestLog(logger))
  app.use(commonHeaders(rules, nodeVersion))
  app.use(caching())
  app.use(errorMapping(rules.errors, logger))
  const gate = node.ingest === undefined ? {} : { gate: { ingest: node.ingest, slots: config.readSlots } }
  for (const middleware of admission({ limits: node.limits, readSlots: node.readSlots, bodyLimit, ...gate }, base)) app.use(middleware)
  app.use(router.routes())
  app.use(routeFallback(chains, base))
  // Errors are all answered by errorMapping; Koa's own handler would only print them again.
  app.silent = true
  return app
}
