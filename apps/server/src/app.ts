import Router from '@koa/router'
import Koa from 'koa'
import type { Middleware } from 'koa'
import type { Logger } from 'pino'
import { registerChainRoutes } from './chain-routes.js'
import { commonHeaders } from './common-headers.js'
import { errorMapping } from './error-mapping.js'
import { MethodNotAllowedError, RouteNotFoundError } from './errors.js'
import type { NodeContext } from './node-context.js'
import { registerNodeRoutes } from './node-routes.js'
import { openApiDocument } from './openapi.js'
import { writeJson } from './paging.js'
import { registerPayloadRoutes } from './payload-routes.js'
import { basePath } from './profiles.js'
import { requestLog } from './request-log.js'
import { registerUpdateRoutes } from './update-streams.js'

const methodOrder = ['GET', 'HEAD', 'POST', 'OPTIONS']

// Answers OPTIONS (CORS preflight included), 405 and 404 before any route runs, from the router's own table.
function routeGate(router: Router): Middleware {
  return async (ctx, next) => {
    const match = router.match(ctx.path, ctx.method)
    const methods = new Set(match.path.flatMap((layer) => layer.methods))
    if (methods.size === 0) throw new RouteNotFoundError(ctx.path)
    const allowed = methodOrder.filter((method) => methods.has(method) || method === 'OPTIONS')
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204
      ctx.set('allow', allowed.join(', '))
      ctx.set('access-control-allow-methods', allowed.join(', '))
      ctx.set('access-control-allow-headers', ctx.get('access-control-request-headers') || 'accept, content-type')
      ctx.set('access-control-max-age', '86400')
      return
    }
    if (!match.route) throw new MethodNotAllowedError(ctx.method, allowed)
    await next()
  }
}

/** The Koa application of a node: middleware in order, then every route of the profile. */
export function createApp(node: NodeContext, logger: Logger): Koa {
  const app = new Koa()
  const router = new Router()
  const base = basePath(node.rules, node.network.name)
  registerNodeRoutes(router, node, base)
  registerChainRoutes(router, node, base)
  registerPayloadRoutes(router, node, base)
  registerUpdateRoutes(router, node, base)
  const openApi = Buffer.from(JSON.stringify(openApiDocument(node.rules, node.network.name, node.nodeVersion)))
  router.get('/openapi.json', (ctx) => writeJson(ctx, openApi))
  app.use(node.requests.middleware())
  app.use(requestLog(logger))
  app.use(commonHeaders(node.rules, node.nodeVersion))
  app.use(errorMapping(node.rules, logger))
  app.use(routeGate(router))
  app.use(router.routes())
  // Errors are all answered by errorMapping; Koa's own handler would only print them again.
  app.silent = true
  return app
}
