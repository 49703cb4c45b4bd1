import type { TransactionCopy, TransactionIndex } from '@weft/store'
import { InvalidQueryError } from '../errors.js'
import { memberText } from '../pact/json-members.js'
import type { DataPage, DataPaging } from './data-paging.js'

/**
 * The work `/txs/search` does per request at most: transactions of the winning branch examined
 * (newest first), plus one for each orphaned block passed over. A page that reaches it ends early,
 * possibly empty, with a `Chainweb-Next` token that goes on from the transaction after the last one
 * examined: a search over all history is a walk of such pages, never one request.
 */
export const SEARCH_SCAN_LIMIT = 5000
/** And the time it reads for at most, in milliseconds (a busy disk makes 5,000 slow): the page ends at whichever comes first. */
export const SEARCH_TIME_LIMIT_MS = 1000
// Where a scan goes on: the block it stopped in (by hash) and how many of its transactions it
// examined, the index cursor just after that block, and the matches still to skip (`offset`).
interface SearchToken {
  readonly after: string | null
  readonly block: string | null
  readonly examined: number
  readonly skip: number
}

const encodeToken = (token: SearchToken): string =>
  Buffer.from(JSON.stringify([token.after, token.block, token.examined, token.skip])).toString('base64url')

const textOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string'

function decodeToken(text: string): SearchToken {
  let parts: unknown
  try {
    parts = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
  } catch {
    parts = undefined
  }
  const [after, block, examined, skip] = Array.isArray(parts) && parts.length === 4 ? parts : []
  if (
    !textOrNull(after) ||
    !textOrNull(block) ||
    (block !== null && !/^[A-Za-z0-9_-]{43}$/.test(block)) ||
    !Number.isSafeInteger(examined) ||
    !Number.isSafeInteger(skip)
  )
    throw new InvalidQueryError(`Invalid next token: ${text.slice(0, 64)}`)
  return { after, block, examined: examined as number, skip: skip as number }
}

/** The Pact code of a stored command (`payload.exec.code`); `""` for a continuation, as chainweb-data's `fromMaybe ""`. */
function commandCode(copy: TransactionCopy): string {
  const cmd = JSON.parse(memberText(copy.command, 'cmd') ?? '""') as string
  const code = memberText(memberText(memberText(cmd, 'payload'), 'exec'), 'code')
  return code === undefined ? '' : ((JSON.parse(code) as string | null) ?? '')
}

/**
 * chainweb-data's `/txs/search?search=`: transactions of the winning branch whose code holds
 * `search` (a plain, case-sensitive substring), newest first (height, then chain, block, position),
 * `offset` matches skipped, at most `limit`, within `scanLimit` transactions examined and about
 * `timeLimit` milliseconds (at least one transaction is examined, so that following tokens ends).
 */
export async function searchTransactions(
  index: TransactionIndex,
  search: string,
  paging: DataPaging,
  scanLimit = SEARCH_SCAN_LIMIT,
  timeLimit = SEARCH_TIME_LIMIT_MS,
): Promise<DataPage<TransactionCopy>> {
  const start = paging.next === undefined ? undefined : decodeToken(paging.next)
  if (paging.limit === 0) return { items: [], next: undefined }
  const items: TransactionCopy[] = []
  let skip = start?.skip ?? paging.offset
  let budget = scanLimit
  const deadline = Date.now() + timeLimit
  const spent = (): boolean => budget === 0 || (budget < scanLimit && Date.now() >= deadline)
  // Examines one canonical block's transactions from `from`: where it stopped, or undefined when done with the block.
  const examine = (copies: readonly TransactionCopy[], from: number): number | undefined => {
    for (let at = from; at < copies.length; at += 1) {
      if (items.length === paging.limit || spent()) return at
      budget -= 1
      const copy = copies[at]!
      if (!commandCode(copy).includes(search)) continue
      if (skip > 0) skip -= 1
      else items.push(copy)
    }
    return undefined
  }
  const token = (after: string | undefined, block: string | null, examined: number): string =>
    encodeToken({ after: after ?? null, block, examined, skip })

  let after = start?.after ?? undefined
  if (start?.block != null) {
    const copies = await index.blockTransactions(start.block)
    // A block orphaned (or gone) since the page before: none of its transactions is on the winning branch now.
    const stopped = copies?.[0]?.block.canonical === true ? examine(copies, start.examined) : undefined
    if (stopped !== undefined) return { items, next: token(after, start.block, stopped) }
    if (after === undefined) return { items, next: undefined }
  }
  // One block per read: the index's cursor after each block is where the next page goes on.
  for (;;) {
    if (spent() || items.length === paging.limit) return { items, next: token(after, null, 0) }
    const page = await index.blocks({
      limit: 1,
      ...(paging.minheight === undefined ? {} : { minheight: paging.minheight }),
      ...(paging.maxheight === undefined ? {} : { maxheight: paging.maxheight }),
      ...(after === undefined ? {} : { next: after }),
    })
    const [item] = page.items
    if (item !== undefined && !item.block.canonical) budget -= 1
    else if (item !== undefined) {
      const stopped = examine((await index.blockTransactions(item.block.hash)) ?? [], 0)
      if (stopped !== undefined) return { items, next: token(page.next, item.block.hash, stopped) }
    }
    if (page.incompleteBelow !== undefined) return { items, next: page.next, incompleteBelow: page.incompleteBelow }
    after = page.next
    if (after === undefined) return { items, next: undefined }
  }
}
