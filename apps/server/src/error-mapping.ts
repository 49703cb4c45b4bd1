import { STATUS_CODES } from 'node:http'
import type { Context, Middleware } from 'koa'
import type { Logger } from 'pino'
import {
  InvalidCursorError,
  InvalidMaxheightError,
  KeyNotFoundError,
  MethodNotAllowedError,
  RouteNotFoundError,
  ServerError,
} from './errors.js'
import type { ProfileRules } from './profiles.js'

/** Status of an error in a profile: malformed cursors and maxheights differ by profile. */
export function statusOf(error: ServerError, rules: ProfileRules): number {
  if (error instanceof InvalidCursorError || error instanceof InvalidMaxheightError) return rules.malformedCursorStatus
  return error.status
}

/** Writes the answer for an error, exactly as the profile table says. */
export function writeError(ctx: Context, error: ServerError, rules: ProfileRules): void {
  const status = statusOf(error, rules)
  ctx.status = status
  if (error instanceof MethodNotAllowedError) ctx.set('allow', error.allow.join(', '))
  if (error instanceof KeyNotFoundError && rules.keyNotFoundBody === 'key-reason') {
    ctx.body = Buffer.from(JSON.stringify({ key: error.key, reason: 'key not found' }))
    ctx.set('content-type', 'application/json;charset=utf-8')
  } else if (rules.errorBody === 'problem') {
    const problem = { type: 'about:blank', title: STATUS_CODES[status] ?? 'Error', status, detail: error.message, code: error.code }
    ctx.body = Buffer.from(JSON.stringify(problem))
    ctx.set('content-type', 'application/problem+json;charset=utf-8')
  } else {
    ctx.body = Buffer.from(`${error.message}\n`)
    ctx.set('content-type', 'text/plain;charset=utf-8')
  }
}

/** The one middleware that turns thrown errors into HTTP answers; anything untyped is a logged 500. */
export function errorMapping(rules: ProfileRules, logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next()
      if (ctx.status === 404 && ctx.body == null && ctx.respond !== false) throw new RouteNotFoundError(ctx.path)
    } catch (thrown) {
      if (ctx.headerSent || ctx.respond === false) {
        logger.error({ err: thrown }, 'error after the response started')
        ctx.res.destroy()
        return
      }
      if (thrown instanceof ServerError) {
        writeError(ctx, thrown, rules)
        return
      }
      logger.error({ err: thrown, method: ctx.method, url: ctx.url }, 'unexpected error')
      writeError(ctx, new ServerError('INTERNAL_ERROR', 500, 'The server failed to answer this request', { cause: thrown }), rules)
    }
  }
}
