import Router from '@koa/router'
import type { Middleware } from 'koa'
import Koa from 'koa'
import type { Logger } from 'pino'
import { MethodNotAllowedError, RouteNotFoundError } from './errors.js'
import { commonHeaders } from './http/common-headers.js'
import { errorMapping } from './http/error-mapping.js'
import { negotiate } from './http/negotiation.js'
import { requestLog } from './http/request-log.js'
import { writeEmpty, writeJson } from './http/responses.js'
import type { NodeContext } from './node-context.js'
import { openApiDocument } from './openapi/openapi.js'
import { basePath } from './profile/profiles.js'
import { chainParam } from './read/path-params.js'
import { registerChainRoutes } from './routes/chain-routes.js'
import { registerNodeRoutes } from './routes/node-routes.js'
import { type OperatorParts, registerOperatorRoutes } from './routes/operator-routes.js'
import { registerPayloadRoutes } from './routes/payload-routes.js'
import { registerReadyRoute } from './routes/ready-route.js'
import { registerUpdateRoutes } from './streams/update-streams.js'
import { admission } from './traffic/admission.js'

const methodOrder = ['GET', 'HEAD', 'POST', 'OPTIONS']

// Answers what no route answered: OPTIONS (CORS preflight included), 405 and 404, from the
// layers the router matched by path alone (it leaves them on ctx.matched). It runs after the
// router, not before it, so that a request that has a route is matched once, not twice. A chain id
// the network lacks names nothing, whatever the method: 404, as a GET of it answers.
function routeFallback(node: NodeContext, base: string): Middleware {
  const chainPrefix = `${base}/chain/`
  return (ctx) => {
    const matched = (ctx as { matched?: Array<{ methods: string[] }> }).matched ?? []
    const methods = new Set(matched.flatMap((layer) => layer.methods))
    if (methods.size === 0) throw new RouteNotFoundError(ctx.path)
    if (ctx.path.startsWith(chainPrefix)) chainParam(node, ctx.path, ctx.path.slice(chainPrefix.length).split('/')[0])
    const allowed = methodOrder.filter((method) => methods.has(method) || method === 'OPTIONS')
    if (ctx.method !== 'OPTIONS') throw new MethodNotAllowedError(ctx.method, allowed)
    writeEmpty(ctx, 204)
    ctx.set('allow', allowed.join(', '))
    ctx.set('access-control-allow-methods', allowed.join(', '))
    ctx.set('access-control-allow-headers', ctx.get('access-control-request-headers') || 'accept, content-type')
    ctx.set('access-control-max-age', '86400')
  }
}

/** The Koa application of a node: middleware in order, then every route of the profile (and the operator's, when given). */
export function createApp(node: NodeContext, logger: Logger, operator?: OperatorParts): Koa {
  const app = new Koa()
  const router = new Router()
  const base = basePath(node.rules, node.network.name)
  registerNodeRoutes(router, node, base)
  registerChainRoutes(router, node, base)
  registerPayloadRoutes(router, node, base)
  registerUpdateRoutes(router, node, base)
  registerReadyRoute(router, node)
  const openApi = Buffer.from(JSON.stringify(openApiDocument(node.rules, node.network.name, node.nodeVersion)))
  router.get('/openapi.json', (ctx) => {
    negotiate(ctx.get('accept') || undefined)
    writeJson(ctx, openApi)
  })
  if (operator !== undefined) registerOperatorRoutes(router, node, operator)
  if (operator !== undefined) app.use(operator.metrics.middleware())
  app.use(node.requests.middleware())
  app.use(requestLog(logger))
  app.use(commonHeaders(node.rules, node.nodeVersion))
  app.use(errorMapping(node.rules.errors, logger))
  for (const middleware of admission(node, base)) app.use(middleware)
  app.use(router.routes())
  app.use(routeFallback(node, base))
  // Errors are all answered by errorMapping; Koa's own handler would only print them again.
  app.silent = true
  return app
}
