import { IngestStoppedError } from './errors.js'

/** How long to wait between attempts: `baseMs`, doubling per consecutive failure, up to `maxMs`. */
export interface BackoffOptions {
  readonly baseMs: number
  readonly maxMs: number
}

/**
 * Milliseconds before the next attempt after `failures` consecutive failures (1 for the first):
 * exponential, with "equal jitter" (between half and all of the step), so that followers that
 * lost the same upstream at once do not come back at once. `random` is in [0, 1).
 */
export function backoffDelay(failures: number, options: BackoffOptions, random: number): number {
  const step = Math.min(options.maxMs, options.baseMs * 2 ** Math.max(0, Math.min(failures - 1, 30)))
  return Math.round(step / 2 + (step / 2) * random)
}

// An upstream's Retry-After is honoured up to an hour: an upstream cannot park this node for good.
const maxRetryAfterMs = 3_600_000

/**
 * Milliseconds before an upstream is asked again after its `failures`-th failure in a row: the
 * backoff, or its `Retry-After` (`retryAfterMs`) when that is longer, up to an hour. A floor, never
 * a replacement: `Retry-After: 0`, or a date already past (a clock behind), waits the backoff.
 */
export function attemptDelay(failures: number, retryAfterMs: number | undefined, options: BackoffOptions, random: number): number {
  return Math.max(Math.min(retryAfterMs ?? 0, maxRetryAfterMs), backoffDelay(failures, options, random))
}

/** Resolves after `ms`, or rejects with `IngestStoppedError` as soon as `signal` aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new IngestStoppedError())
      return
    }
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(new IngestStoppedError())
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal.addEventListener('abort', onAbort, { once: true })
  })
}
