import { WeftHttpError, WeftNetworkError } from './errors.js'

/** Whether an answer's status is worth a retry: a 5xx, or 429 (too many requests). */
export function isTransientStatus(status: number): boolean {
  return status >= 500 || status === 429
}

/** Whether a failure is worth a retry: no answer (`WeftNetworkError`), or a 5xx or 429 answer. */
export function isTransient(error: unknown): error is WeftNetworkError | WeftHttpError {
  if (error instanceof WeftNetworkError) return true
  return error instanceof WeftHttpError && isTransientStatus(error.status)
}

/** Milliseconds a `Retry-After` value asks to wait: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | readonly string[] | null | undefined, now = Date.now()): number | undefined {
  const text = (typeof value === 'string' ? value : value?.[0])?.trim()
  if (text === undefined || text === '') return undefined
  if (/^\d+$/.test(text)) return Number(text) * 1000
  const date = Date.parse(text)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}
