import { InvalidLimitError } from './errors.js'

/** The limit a page gets when the query names none, and its largest value (docs/wire/endpoints.md, GET block). */
export const DEFAULT_LIMIT = 360

/** The limit to serve: `cap` when none is asked for, at most `cap` otherwise (a larger limit is no error). */
export function resolveLimit(limit: number | undefined, cap: number = DEFAULT_LIMIT): number {
  checkCount('the limit cap', cap)
  if (limit === undefined) return cap
  checkCount('the limit', limit)
  return Math.min(limit, cap)
}

/** Throws InvalidLimitError unless `value` is a non-negative safe integer. */
export function checkCount(what: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new InvalidLimitError(what, value)
}
