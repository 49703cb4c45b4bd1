import { allChains, type Network } from '@weft/block'
import { decodeHash, isHashText } from '@weft/hash-text'
import {
  allEventsRange,
  type DecodedEntry,
  decodeEntry,
  eventRange,
  InvalidIndexQueryError,
  type KeyRange,
  moduleEventsRange,
  pactRange,
  transactionRange,
} from '@weft/index'
import { IndexDisabledError } from '../errors.js'
import type { CatchUpProgress } from '../index-catch-up.js'
import type { IndexKeeper } from '../index-keeper.js'
import { type ChainDb, decodeHashRecord, hashIndexKey } from '../keys.js'
import { smallRange } from '../small-range.js'
import { BlockLookup, type FoundBlock, type ReadContext } from './block-lookup.js'
import { readPage } from './index-pages.js'
import type {
  BlockWithTransactions,
  EventCopy,
  IndexPage,
  IndexStatus,
  PageOptions,
  TransactionCopy,
  TransactionIndex,
  TransactionLookup,
  TransferCopy,
} from './index-types.js'
import { blockPage, eventPage, transferPage } from './page-queries.js'

/** What the index reads: the database, the index state and catch-up, and a read context made per read. */
export interface IndexReadParts {
  readonly db: ChainDb
  readonly network: Network
  readonly keeper: IndexKeeper
  catchUp(): CatchUpProgress
  /** Resolves once the catch-up is not running. */
  catchUpDone(): Promise<void>
  /** The cut and heads to mark copies against, and `ancestorAt`; throws when the store is closed. */
  context(): ReadContext
}

/** Event names of one module a module query merges at most. */
export const MAX_MODULE_NAMES = 1000

// Canonical copies first, then by chain, then newest first.
const copyOrder = (a: TransactionCopy, b: TransactionCopy): number =>
  Number(b.block.canonical) - Number(a.block.canonical) || a.block.chain - b.block.chain || b.block.height - a.block.height

/** `TransactionIndex` over a store's classic-level database: entries of `@weft/index`, hits confirmed against the blocks. */
export class LevelTransactionIndex implements TransactionIndex {
  readonly #parts: IndexReadParts
  readonly #chains: readonly number[]

  constructor(parts: IndexReadParts) {
    this.#parts = parts
    this.#chains = allChains(parts.network)
  }

  status(): IndexStatus {
    const state = this.#parts.keeper.state
    if (state.state !== 'catching-up') return { state: state.state }
    let remaining = 0
    for (const height of state.below.values()) remaining += height
    const { indexedBlocks, error } = this.#parts.catchUp()
    return {
      state: 'catching-up',
      completeFrom: Object.fromEntries(state.below),
      remainingHeights: remaining,
      progress: 1 - remaining / state.total,
      indexedBlocks,
      ...(error === undefined ? {} : { error: error.message }),
    }
  }

  async caughtUp(): Promise<IndexStatus> {
    await this.#parts.catchUpDone()
    return this.status()
  }

  async transaction(requestKey: string, options: { readonly chain?: number } = {}): Promise<TransactionLookup> {
    return this.#lookup(transactionRange(requestKey, options.chain), options.chain, (lookup, block, position) => {
      const found = lookup.entries(block).transactions.find((transaction) => transaction.position === position)
      return found?.requestKey === requestKey ? requestKey : undefined
    })
  }

  async pactSteps(pactId: string, options: { readonly chain?: number } = {}): Promise<TransactionLookup> {
    return this.#lookup(pactRange(pactId, options.chain), options.chain, (lookup, block, position) => {
      const found = lookup.entries(block).transactions.find((transaction) => transaction.position === position)
      return found?.pactId === pactId ? found.requestKey : undefined
    })
  }

  // The copies the entries of `range` lead to, each confirmed by `confirm` (the request key it holds).
  async #lookup(
    range: KeyRange,
    chain: number | undefined,
    confirm: (lookup: BlockLookup, block: FoundBlock, position: number) => string | undefined,
  ): Promise<TransactionLookup> {
    const { db } = this.#enabled()
    const lookup = new BlockLookup(this.#parts.context())
    const entries = await smallRange(db, range)
    const copies = await Promise.all(
      entries.map(async ([key, value]) => {
        // A request key's or a pact's range holds entries of its kind alone.
        const entry = decodeEntry(key, value) as Extract<DecodedEntry, { kind: 'transaction' | 'pact' }>
        const found: TransactionCopy[] = []
        for (const block of await lookup.blocksAt(entry.block))
          for (const position of entry.positions) {
            const requestKey = confirm(lookup, block, position)
            if (requestKey === undefined) continue
            found.push({ requestKey, block: await lookup.mark(block), position, ...lookup.transaction(block, position) })
          }
        return found
      }),
    )
    return { copies: copies.flat().sort(copyOrder), complete: this.#completeFrom(chain) === 0 }
  }

  async blockTransactions(hash: string | Uint8Array): Promise<TransactionCopy[] | undefined> {
    const { db } = this.#enabled()
    if (typeof hash === 'string' && !isHashText(hash))
      throw new InvalidIndexQueryError(
        'INVALID_INDEX_QUERY',
        `Expected a block hash of 43 base64url characters, received ${hash.slice(0, 60)}`,
      )
    const bytes = typeof hash === 'string' ? decodeHash(hash) : Buffer.from(hash)
    const ref = await db.get(hashIndexKey(bytes))
    if (ref === undefined) return undefined
    const { chainId, height } = decodeHashRecord(ref)
    const lookup = new BlockLookup(this.#parts.context())
    const [block] = (await lookup.blocksAt({ chain: chainId, height, hashPrefix: bytes.subarray(0, 8) })).filter((found) =>
      found.hash.equals(bytes),
    )
    if (block === undefined) return undefined
    const mark = await lookup.mark(block)
    return lookup
      .entries(block)
      .transactions.map(({ position, requestKey }) => ({ requestKey, block: mark, position, ...lookup.transaction(block, position) }))
  }

  async events(query: { readonly module: string; readonly name?: string } & PageOptions): Promise<IndexPage<EventCopy>> {
    const { db } = this.#enabled()
    let names: readonly string[]
    if (query.name !== undefined) names = [query.name]
    else {
      names = (await this.eventNames({ module: query.module, limit: MAX_MODULE_NAMES + 1 })).map(({ name }) => name)
      if (names.length > MAX_MODULE_NAMES)
        throw new InvalidIndexQueryError(
          'INVALID_INDEX_QUERY',
          `Expected a module of at most ${MAX_MODULE_NAMES} event names, received ${query.module}, which has more: query its events by name`,
        )
    }
    return readPage(db, eventPage(this.#pageContext(query.chain), query, names))
  }

  async transfers(query: { readonly account: string; readonly token?: string } & PageOptions): Promise<IndexPage<TransferCopy>> {
    const { db } = this.#enabled()
    return readPage(db, transferPage(this.#pageContext(query.chain), { ...query, token: query.token ?? 'coin' }))
  }

  async blocks(query: PageOptions = {}): Promise<IndexPage<BlockWithTransactions>> {
    const { db } = this.#enabled()
    return readPage(db, blockPage(this.#pageContext(query.chain), query))
  }

  async eventNames(options: { readonly module?: string; readonly limit?: number } = {}): Promise<Array<{ module: string; name: string }>> {
    const { db } = this.#enabled()
    const { gte, lt } = options.module === undefined ? allEventsRange() : moduleEventsRange(options.module)
    const limit = options.limit ?? 1000
    const names: Array<{ module: string; name: string }> = []
    // One entry per name is read: after each, the iterator seeks past every other entry of that name.
    const iterator = db.iterator({ gte, lt })
    try {
      while (names.length < limit) {
        const next = await iterator.next()
        if (next === undefined) break
        const entry = decodeEntry(next[0], next[1]) as Extract<DecodedEntry, { kind: 'event' }>
        names.push({ module: entry.module, name: entry.name })
        iterator.seek(eventRange({ module: entry.module, name: entry.name }).lt)
      }
    } finally {
      await iterator.close()
    }
    return names
  }

  #pageContext(chain: number | undefined): { lookup: BlockLookup; completeFrom: number } {
    return { lookup: new BlockLookup(this.#parts.context()), completeFrom: this.#completeFrom(chain) }
  }

  // The height from which every chain in scope is complete: the highest of their positions.
  #completeFrom(chain: number | undefined): number {
    const { keeper } = this.#parts
    if (chain !== undefined) return keeper.completeFrom(chain)
    return Math.max(0, ...this.#chains.map((each) => keeper.completeFrom(each)))
  }

  #enabled(): IndexReadParts {
    if (this.#parts.keeper.state.state === 'disabled') throw new IndexDisabledError()
    return this.#parts
  }
}
