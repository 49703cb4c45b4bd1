import { accountRange, blockRange, type DecodedEntry, eventRange, type KeyRange, moduleEventsRange } from '@weft/index'
import type { BlockLookup, FoundBlock } from './block-lookup.js'
import type { RangeItem } from './entry-ranges.js'
import type { PageRange, PageSpec } from './index-pages.js'
import type { BlockWithTransactions, EventCopy, PageOptions, TransferCopy } from './index-types.js'

// Every newest-first range ends its keys with 4 bytes of height counted down, a chain and a hash
// prefix: what comes before the height is the range's prefix.
const pageRange = (range: KeyRange): PageRange => ({ range, prefix: range.gte.subarray(0, range.gte.length - 4) })

/** What building a page's spec needs besides the query: the block lookup of the read and the completeness of its scope. */
export interface PageContext {
  readonly lookup: BlockLookup
  readonly completeFrom: number
}

// An entry of one kind: each page's ranges hold entries of their kind alone.
type Entry<K extends DecodedEntry['kind']> = Extract<DecodedEntry, { kind: K }>

const keepChain =
  (chain: number | undefined) =>
  (item: RangeItem): boolean =>
    chain === undefined || item.entry.block.chain === chain

const bounds = (options: PageOptions) => ({
  ...(options.minheight === undefined ? {} : { minheight: options.minheight }),
  ...(options.maxheight === undefined ? {} : { maxheight: options.maxheight }),
})

// The first stored block an entry names that `confirms` holds for, marked; undefined when none does,
// or when only canonical copies are asked for and it is orphaned.
async function confirmed<T>(
  context: PageContext,
  options: PageOptions,
  item: RangeItem,
  confirms: (block: FoundBlock) => T | undefined,
): Promise<{ block: FoundBlock; found: T; mark: Awaited<ReturnType<BlockLookup['mark']>> } | undefined> {
  for (const block of await context.lookup.blocksAt(item.entry.block)) {
    const found = confirms(block)
    if (found === undefined) continue
    const mark = await context.lookup.mark(block)
    if (options.canonicalOnly === true && !mark.canonical) return undefined
    return { block, found, mark }
  }
  return undefined
}

/** The spec of a page of events: one name's range, or every name of the module merged. */
export function eventPage(
  context: PageContext,
  query: { readonly module: string; readonly name?: string } & PageOptions,
  names: readonly string[],
): PageSpec<EventCopy> {
  const ranges = names.map((name) => pageRange(eventRange({ module: query.module, name, ...bounds(query) })))
  const single = query.name === undefined ? undefined : pageRange(eventRange({ module: query.module, name: query.name }))
  return {
    ranges,
    cursorPrefix: single?.prefix ?? moduleEventsRange(query.module).gte,
    options: query,
    completeFrom: context.completeFrom,
    keep: keepChain(query.chain),
    accept: async (item) => {
      const { position, index } = item
      const entry = item.entry as Entry<'event'>
      const hit = await confirmed(context, query, item, (block) =>
        context.lookup
          .entries(block)
          .events.find(
            (event) => event.position === position && event.index === index && event.module === entry.module && event.name === entry.name,
          ),
      )
      if (hit === undefined) return undefined
      const { requestKey, module, name, params } = hit.found
      const moduleHash = context.lookup.moduleHash(hit.block, position, index)
      return { block: hit.mark, position, index, requestKey, module, name, params, moduleHash }
    },
  }
}

/** The spec of a page of an account's transfers of one token. */
export function transferPage(
  context: PageContext,
  query: { readonly account: string; readonly token: string } & PageOptions,
): PageSpec<TransferCopy> {
  const range = pageRange(accountRange({ account: query.account, token: query.token, ...bounds(query) }))
  return {
    ranges: [range],
    cursorPrefix: range.prefix,
    options: query,
    completeFrom: context.completeFrom,
    keep: keepChain(query.chain),
    accept: async (item) => {
      const { position, index } = item
      const entry = item.entry as Entry<'account'>
      const { sent, received } = entry.items[item.ordinal]!
      const hit = await confirmed(context, query, item, (block) =>
        context.lookup
          .entries(block)
          .transfers.find(
            (transfer) =>
              transfer.position === position &&
              transfer.index === index &&
              transfer.token === query.token &&
              (!sent || transfer.sender === query.account) &&
              (!received || transfer.receiver === query.account),
          ),
      )
      if (hit === undefined) return undefined
      const { requestKey, token, sender, receiver, amount, pactId } = hit.found
      const crossChain =
        pactId === undefined ? null : context.lookup.crossChain(hit.block, position, token, sender === '' ? 'mint' : 'burn')
      return {
        block: hit.mark,
        position,
        index,
        requestKey,
        token,
        sender,
        receiver,
        amount,
        pactId: pactId ?? null,
        crossChain,
        sent,
        received,
      }
    },
  }
}

/** The spec of a page of blocks that hold transactions. */
export function blockPage(context: PageContext, query: PageOptions): PageSpec<BlockWithTransactions> {
  const range = pageRange(blockRange(bounds(query)))
  return {
    ranges: [range],
    cursorPrefix: range.prefix,
    options: query,
    completeFrom: context.completeFrom,
    keep: keepChain(query.chain),
    accept: async (item) => {
      const entry = item.entry as Entry<'block'>
      const hit = await confirmed(context, query, item, (block) =>
        context.lookup.payload(block).transactions.length === entry.transactionCount ? true : undefined,
      )
      return hit === undefined ? undefined : { block: hit.mark, transactionCount: entry.transactionCount }
    },
  }
}
