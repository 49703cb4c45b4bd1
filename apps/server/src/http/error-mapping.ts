import { isWeftError, type WeftError } from '@weft/errors'
import { encodeHash } from '@weft/hash-text'
import type { Context, Middleware } from 'koa'
import type { Logger } from 'pino'
import { InternalServerError, RouteNotFoundError } from '../errors.js'
import { answerOf, type ErrorAnswer, type ErrorTable } from '../profile/error-table.js'
import { writeEmpty, writeKeyNotFound, writeProblem, writeText } from './responses.js'

// An error that names a hash (an unknown cursor, bound or payload) carries it as `hash`.
function keyOf(error: WeftError): string {
  const { hash } = error as { hash?: unknown }
  return hash instanceof Uint8Array ? encodeHash(hash) : ''
}

/** Writes the answer the table gives for an error's code. */
export function writeError(ctx: Context, error: WeftError, answer: ErrorAnswer): void {
  // A 405 names the methods the path answers (MethodNotAllowedError's `allow`).
  const { allow, retryAfter } = error as { allow?: unknown; retryAfter?: unknown }
  if (Array.isArray(allow)) ctx.set('allow', allow.join(', '))
  // A 429 says when to come back (TooManyRequestsError's `retryAfter`, seconds).
  if (typeof retryAfter === 'number') ctx.set('retry-after', String(retryAfter))
  if (answer.body === 'problem') writeProblem(ctx, answer.status, error.message, error.code)
  else if (answer.body === 'key-reason') writeKeyNotFound(ctx, answer.status, keyOf(error))
  else if (answer.body === 'text') writeText(ctx, `${error.message}\n`, answer.status)
  else writeEmpty(ctx, answer.status)
}

/** Whether the request's connection is gone: nothing can be written to it any more. */
export function clientGone(ctx: Context): boolean {
  return ctx.req.socket.destroyed || ctx.res.destroyed
}

/**
 * The one middleware that turns thrown errors into HTTP answers: a Weft error whose code the profile's
 * table lists is answered as the table says, whichever package threw it; anything else is a logged 500.
 */
export function errorMapping(table: ErrorTable, logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next()
      if (ctx.status === 404 && ctx.body == null && ctx.respond !== false) throw new RouteNotFoundError(ctx.path)
    } catch (thrown) {
      // A client that left (or whose connection the server cut, as a request timeout does) cannot
      // be answered: the failure is its leaving, not the server's, so it is no error and nothing is written.
      if (clientGone(ctx)) {
        logger.debug({ method: ctx.method, url: ctx.url, reason: (thrown as Error)?.message }, 'client went away before its answer')
        ctx.respond = false
        return
      }
      if (ctx.headerSent || ctx.respond === false) {
        logger.error({ err: thrown }, 'error after the response started')
        ctx.res.destroy()
        return
      }
      const answer = isWeftError(thrown) ? answerOf(table, thrown.code) : undefined
      if (isWeftError(thrown) && answer !== undefined) {
        writeError(ctx, thrown, answer)
        return
      }
      logger.error({ err: thrown, method: ctx.method, url: ctx.url }, 'unexpected error')
      writeError(ctx, new InternalServerError({ cause: thrown }), table.INTERNAL_ERROR)
    }
  }
}
