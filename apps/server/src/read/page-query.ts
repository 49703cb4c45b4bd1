import type { ParsedUrlQuery } from 'node:querystring'
import { type Cursor, InvalidCursorError, parseCursor } from '@weft/cursor'
import { BlockQuery, CutQuery } from '@weft/types'
import { InvalidMaxheightError, InvalidQueryError } from '../errors.js'
import { compileChecker, type SchemaFailure, shown } from './schema-check.js'

/** The paging query of GET block, header and hash, and of their branch POSTs, checked. */
export interface PageQuery {
  /** As asked; capping is the endpoint's business. */
  readonly limit: number | undefined
  readonly cursor: Cursor | undefined
  readonly minheight: number | undefined
  readonly maxheight: number | undefined
}

const blockQuery = compileChecker(BlockQuery)
const cutQuery = compileChecker(CutQuery)
// The first malformed parameter in this order decides the answer (it differs by parameter and profile).
const parameterOrder: readonly string[] = Object.keys(BlockQuery.properties)

// Which error a malformed page parameter is: `next` and `maxheight` have their own (404 in the spec profile).
const malformedPageParameter: ReadonlyMap<string, new (message: string) => Error> = new Map<string, new (message: string) => Error>([
  ['next', InvalidCursorError],
  ['maxheight', InvalidMaxheightError],
])

function messageOf(failure: SchemaFailure | undefined): string {
  if (failure === undefined) return 'Expected a well-formed query'
  return `Expected query parameter ${failure.key} to be ${failure.expected}, received ${shown(failure.received)}`
}

// Heights beyond 2^53 match nothing a store can hold: clamping keeps them exact enough to compare.
function count(text: string | undefined): number | undefined {
  return text === undefined ? undefined : Math.min(Number(text), Number.MAX_SAFE_INTEGER)
}

/** Checks `limit`, `minheight`, `maxheight` and `next` against `BlockQuery`; the first malformed one throws its error. */
export function parsePageQuery(query: ParsedUrlQuery): PageQuery {
  if (!blockQuery.check(query)) {
    const failures = blockQuery.failures(query)
    const first = failures.sort((a, b) => parameterOrder.indexOf(a.key) - parameterOrder.indexOf(b.key))[0]
    const Malformed = malformedPageParameter.get(first?.key ?? '') ?? InvalidQueryError
    throw new Malformed(messageOf(first))
  }
  return {
    limit: count(query.limit),
    // The schema's cursor pattern is the parser's rule, so a checked `next` parses.
    cursor: query.next === undefined ? undefined : parseCursor(query.next),
    minheight: count(query.minheight),
    maxheight: count(query.maxheight),
  }
}

/** Checks the cut's `maxheight` against `CutQuery` (400 in both profiles when malformed). */
export function parseCutQuery(query: ParsedUrlQuery): number | undefined {
  if (!cutQuery.check(query)) throw new InvalidQueryError(messageOf(cutQuery.failures(query)[0]))
  return count(query.maxheight)
}
