import type { Ingest } from '@weft/ingest'
import type { Middleware } from 'koa'

// How long a reading of ingest's state serves the requests that follow it.
const stateMs = 100

/**
 * Upstream mode: while ingest is behind its upstream (copying, or more than `--max-lag` heights
 * behind on a chain), at most `slots` requests run at once; the others wait their turn. One event
 * loop and one thread pool serve both, and without a bound a hundred clients reading pages left
 * ingest a tenth of its idle rate (the pool's queue of reads delayed each of its writes); with 4
 * slots it kept about four fifths (see the bench). Caught up, or with no upstream answering,
 * requests run unbounded. The event streams are never held: they last for hours.
 */
export function readGate(ingest: Ingest, slots: number, isStreamPath: (path: string) => boolean): Middleware {
  let running = 0
  const waiting: Array<() => void> = []
  let checkedAt = Number.NEGATIVE_INFINITY
  let wasBehind = false
  const behind = (): boolean => {
    const now = Date.now()
    if (now - checkedAt < stateMs) return wasBehind
    checkedAt = now
    const status = ingest.status()
    wasBehind = status.phase === 'copying' || [...status.lag.values()].some((heights) => heights > status.maxLag)
    return wasBehind
  }
  return async (ctx, next) => {
    if (isStreamPath(ctx.path) || !behind()) return next()
    if (running >= slots) await new Promise<void>((resolve) => waiting.push(resolve))
    else running += 1
    try {
      await next()
    } finally {
      const turn = waiting.shift()
      if (turn === undefined) running -= 1
      else turn()
    }
  }
}
