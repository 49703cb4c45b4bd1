import type { ParsedUrlQuery } from 'node:querystring'
import { type Cursor, parseCursor } from '@weft/cursor'
import { InvalidCursorError, InvalidMaxheightError, InvalidQueryError } from './errors.js'

/** The paging query of GET block, header and hash, and of their branch POSTs, checked. */
export interface PageQuery {
  /** As asked; capping is the endpoint's business. */
  readonly limit: number | undefined
  readonly cursor: Cursor | undefined
  readonly minheight: number | undefined
  readonly maxheight: number | undefined
}

const digits = /^[0-9]+$/

// Heights beyond 2^53 match nothing a store can hold: clamping keeps them exact enough to compare.
function toSafeInteger(text: string): number {
  return Math.min(Number(text), Number.MAX_SAFE_INTEGER)
}

function single(query: ParsedUrlQuery, name: string, malformed: (received: unknown) => Error): string | undefined {
  const value = query[name]
  if (value === undefined) return undefined
  if (typeof value !== 'string') throw malformed(value)
  return value
}

/** Reads a non-negative integer query parameter (400 INVALID_QUERY otherwise). */
export function parseCount(query: ParsedUrlQuery, name: string): number | undefined {
  const text = single(query, name, (received) => new InvalidQueryError(name, received))
  if (text === undefined) return undefined
  if (!digits.test(text)) throw new InvalidQueryError(name, text)
  return toSafeInteger(text)
}

/** Checks `limit`, `next`, `minheight` and `maxheight`; each malformed one throws its own typed error. */
export function parsePageQuery(query: ParsedUrlQuery): PageQuery {
  const limit = parseCount(query, 'limit')
  const minheight = parseCount(query, 'minheight')
  const maxText = single(query, 'maxheight', (received) => new InvalidMaxheightError(received))
  if (maxText !== undefined && !digits.test(maxText)) throw new InvalidMaxheightError(maxText)
  const nextText = single(query, 'next', (received) => new InvalidCursorError(received))
  let cursor: Cursor | undefined
  if (nextText !== undefined) {
    try {
      cursor = parseCursor(nextText)
    } catch (error) {
      throw new InvalidCursorError(nextText.slice(0, 100), { cause: error })
    }
  }
  return { limit, cursor, minheight, maxheight: maxText === undefined ? undefined : toSafeInteger(maxText) }
}
