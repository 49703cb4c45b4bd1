import { WeftHttpError, WeftNetworkError } from './errors.js'

/** True for failures that a retry may cure: no answer, or a 5xx / 429 answer. */
export function isTransient(error: unknown): boolean {
  if (error instanceof WeftNetworkError) return true
  return error instanceof WeftHttpError && (error.status >= 500 || error.status === 429)
}

/** Resolves after `ms` milliseconds, or at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve()
    const onAbort = () => {
      clearTimeout(timer)
      resolve()
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
