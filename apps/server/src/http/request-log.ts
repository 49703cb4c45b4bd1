import type { Middleware } from 'koa'
import type { Logger } from 'pino'

/**
 * Logs one line per request when its response is closed (finished, aborted, or an event stream
 * ended). Below level info it costs nothing: no clock, no listener.
 */
export function requestLog(logger: Logger): Middleware {
  return async (ctx, next) => {
    if (!logger.isLevelEnabled('info')) return next()
    const started = process.hrtime.bigint()
    ctx.res.once('close', () => {
      logger.info({
        method: ctx.method,
        url: ctx.url,
        status: ctx.res.statusCode,
        ms: Number(process.hrtime.bigint() - started) / 1e6,
        bytes: ctx.res.getHeader('content-length'),
        peer: ctx.res.getHeader('x-peer-addr'),
        finished: ctx.res.writableFinished,
      })
    })
    await next()
  }
}
