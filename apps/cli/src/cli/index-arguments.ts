import type { IndexPageQuery } from '@weft/client'
import { type Flags, UsageError, type Values } from '@weft/command-line'
import { integer, pageFlags } from './arguments.js'

/** The flags of the index pages (`weft events`, `weft transfers`): a block page's, and `--canonical`. */
export const indexPageFlags: Flags = { ...pageFlags, canonical: { type: 'boolean' } }

/** The help of `indexPageFlags`. */
export const indexPageHelp = `  -c, --chain N        only this chain
      --minheight N    lowest height
      --maxheight N    highest height
      --canonical      only copies on the winning branch (default: orphaned copies too, "canonical":false)
  -n, --limit N        print at most N lines (default: all)
      --page-size N    items asked per request (default: the server's, 100)
      --next CURSOR    start at this cursor (inclusive:<token>, a page's next)`

/** The page query and print limit of an index command. */
export function indexPageArguments(values: Values): { query: IndexPageQuery; limit: number } {
  const limit = values.limit === undefined ? Infinity : integer('--limit', values.limit as string)
  const query: IndexPageQuery = {}
  if (values.chain !== undefined) query.chain = integer('--chain', values.chain as string)
  if (values.minheight !== undefined) query.minheight = integer('--minheight', values.minheight as string)
  if (values.maxheight !== undefined) query.maxheight = integer('--maxheight', values.maxheight as string)
  if (values.canonical === true) query.canonical = true
  if (values.next !== undefined) {
    const next = values.next as string
    if (!/^inclusive:[A-Za-z0-9_-]+$/.test(next))
      throw new UsageError(`--next must be inclusive:<token> (a page's next), got ${JSON.stringify(next)}`)
    query.next = next
  }
  if (values['page-size'] !== undefined) query.limit = integer('--page-size', values['page-size'] as string, 1)
  // A small --limit needs no larger pages than itself.
  else if (limit < 100) query.limit = Math.max(1, limit)
  return { query, limit }
}

/** Prints each item as one JSON line, up to `limit`. */
export async function printItems(items: AsyncIterable<unknown>, limit: number, print: (item: unknown) => Promise<void>): Promise<void> {
  let printed = 0
  if (limit === 0) return
  for await (const item of items) {
    await print(item)
    if (++printed === limit) return
  }
}
