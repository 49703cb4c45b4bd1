import { decodeCursor, decodeEntry, encodeCursor, InvalidIndexQueryError, type KeyRange } from '@weft/index'
import type { ChainDb } from '../keys.js'
import { compareItems, EntryRange, type RangeItem } from './entry-ranges.js'
import type { IndexPage, PageOptions } from './index-types.js'

/** Items a page holds at most, and by default. */
export const MAX_PAGE_LIMIT = 1000
const defaultLimit = 100
const defaultScanLimit = 10_000

/** One newest-first range a page reads, and the key bytes before each entry's block part. */
export interface PageRange {
  readonly range: KeyRange
  readonly prefix: Buffer
}

/** What a page query reads and how it judges each item. */
export interface PageSpec<T> {
  /** The ranges merged into the page (one, or every event name of a module). */
  readonly ranges: readonly PageRange[]
  /** The bytes every cursor of this query starts with (a cursor of another query is refused). */
  readonly cursorPrefix: Buffer
  readonly options: PageOptions
  /** The lowest height from which the index is complete on every chain the query covers. */
  readonly completeFrom: number
  /** A cheap test on the entry alone (its chain); an item it refuses is passed over without a read. */
  keep(item: RangeItem): boolean
  /** The answer's item, or undefined to leave it out (orphaned where only canonical copies are asked, or not confirmed). */
  accept(item: RangeItem): Promise<T | undefined>
}

// The place just after an item: what `next` tokens encode.
const tokenAfter = (item: RangeItem): string => encodeCursor({ key: item.key, taken: item.ordinal + 1 }).toString('base64url')
const heightOf = (item: RangeItem): number => 0xffffffff - item.suffix.readUInt32BE(0)

function outOfRange(message: string): InvalidIndexQueryError {
  return new InvalidIndexQueryError('CURSOR_OUT_OF_RANGE', message)
}

// Where a page given `next` resumes: the block part of the cursor's entry, and its last item given, if any.
async function resumePoint(
  db: ChainDb,
  spec: PageSpec<unknown>,
  next: string,
): Promise<{ suffix: Buffer; last: { suffix: Buffer; position: number; index: number } | undefined }> {
  const cursor = decodeCursor(Buffer.from(next, 'base64url'))
  const key = Buffer.from(cursor.key)
  const range = spec.ranges.find(({ prefix }) => key.length > prefix.length && key.subarray(0, prefix.length).equals(prefix))
  if (!key.subarray(0, spec.cursorPrefix.length).equals(spec.cursorPrefix) || range === undefined)
    throw outOfRange(`Expected a next token of this query, received one of another (${next.slice(0, 60)})`)
  const suffix = key.subarray(range.prefix.length)
  if (cursor.taken === 0) return { suffix, last: undefined }
  const value = await db.get(key)
  const entry = value === undefined ? undefined : decodeEntry(key, value)
  const items = entry === undefined ? [] : entry.kind === 'event' || entry.kind === 'account' ? entry.items : [{ position: 0, index: 0 }]
  const item = items[cursor.taken - 1]
  if (item === undefined)
    throw new InvalidIndexQueryError(
      'INVALID_INDEX_QUERY',
      `Expected a next token naming an entry of this store, received ${next.slice(0, 60)}`,
    )
  return { suffix, last: { suffix, position: item.position, index: item.index } }
}

function pageLimit(name: string, value: number | undefined, otherwise: number, max: number): number {
  if (value === undefined) return otherwise
  if (!(Number.isSafeInteger(value) && value >= 1))
    throw new InvalidIndexQueryError('INVALID_INDEX_QUERY', `Expected ${name} to be an integer from 1, received ${String(value)}`)
  return Math.min(value, max)
}

/**
 * Reads one page: the ranges merged item by item newest first, from just after the `next` cursor,
 * up to `limit` answered items, `scanLimit` entries read, or the height below which the index is
 * not complete yet. Candidates are judged (`accept`) a batch at a time, in parallel; the next cursor
 * stands after the last item judged, answered or not, so pages never skip or repeat an item.
 */
export async function readPage<T>(db: ChainDb, spec: PageSpec<T>): Promise<IndexPage<T>> {
  const { options } = spec
  const limit = pageLimit('limit', options.limit, defaultLimit, MAX_PAGE_LIMIT)
  const scanLimit = pageLimit('scanLimit', options.scanLimit, defaultScanLimit, Number.MAX_SAFE_INTEGER)
  const resume = options.next === undefined ? undefined : await resumePoint(db, spec, options.next)
  const ranges = spec.ranges.map(({ range, prefix }) => {
    const start = resume === undefined ? range.gte : Buffer.concat([prefix, resume.suffix])
    return new EntryRange(db, { gte: Buffer.compare(start, range.gte) > 0 ? start : range.gte, lt: range.lt }, prefix.length)
  })
  const items: T[] = []
  let passed: RangeItem | undefined
  const page = (next: string | undefined, incompleteBelow?: number): IndexPage<T> =>
    incompleteBelow === undefined ? { items, next } : { items, next, incompleteBelow }
  try {
    for (;;) {
      const candidates: RangeItem[] = []
      let stop: 'full' | 'scanned' | 'incomplete' | 'end' | undefined
      while (candidates.length < limit - items.length) {
        const item = await smallest(ranges)
        if (item === undefined) stop = 'end'
        else if (resume?.last !== undefined && compareItems(item.value, resume.last) <= 0) {
          item.range.advance()
          continue
        } else if (heightOf(item.value) < spec.completeFrom) stop = 'incomplete'
        else if (ranges.reduce((sum, range) => sum + range.entriesRead, 0) > scanLimit) stop = 'scanned'
        if (stop !== undefined) break
        item!.range.advance()
        passed = item!.value
        if (spec.keep(item!.value)) candidates.push(item!.value)
      }
      const judged = await Promise.all(candidates.map((candidate) => spec.accept(candidate)))
      for (const answer of judged) if (answer !== undefined) items.push(answer)
      const resumeToken = passed === undefined ? options.next : tokenAfter(passed)
      if (stop === 'end') return spec.completeFrom > (options.minheight ?? 0) ? page(resumeToken, spec.completeFrom) : page(undefined)
      if (stop === 'incomplete') return page(resumeToken, spec.completeFrom)
      if (stop === 'scanned') return page(resumeToken)
      if (items.length >= limit) return page((await smallest(ranges)) === undefined ? undefined : resumeToken)
    }
  } finally {
    await Promise.all(ranges.map((range) => range.close()))
  }
}

// The range whose current item comes first, with that item.
async function smallest(ranges: readonly EntryRange[]): Promise<{ range: EntryRange; value: RangeItem } | undefined> {
  let best: { range: EntryRange; value: RangeItem } | undefined
  for (const range of ranges) {
    const value = await range.current()
    if (value !== undefined && (best === undefined || compareItems(value, best.value) < 0)) best = { range, value }
  }
  return best
}
