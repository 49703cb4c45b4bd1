import { decodeHash, encodeHash, isHashText } from '@weft/hash-text'
import type { ChainStore, IndexedBlock, TransactionIndex } from '@weft/store'
import { InvalidQueryError } from '../errors.js'

/** A block the search found: by its hash, or at the height asked for. */
export interface FoundBlock {
  readonly chain: number
  readonly height: number
  readonly hash: string
  readonly canonical: boolean
  /** Its chain head's height minus its own. */
  readonly depth: number
}

/** A copy of a transaction the search found by its request key. */
export interface FoundTransaction {
  readonly requestKey: string
  readonly chain: number
  readonly height: number
  readonly blockHash: string
  readonly position: number
  readonly canonical: boolean
  readonly depth: number
}

/** A transfer of the account searched for, newest first. */
export interface FoundTransfer {
  readonly requestKey: string
  readonly chain: number
  readonly height: number
  readonly blockHash: string
  readonly token: string
  readonly sender: string
  readonly receiver: string
  /** Exact decimal text. */
  readonly amount: string
  readonly canonical: boolean
  readonly depth: number
}

/** The body of `GET /search?q=`: what the status page's search box shows. */
export interface SearchAnswer {
  readonly query: string
  /** How the text was read: a 43-character hash (a request key or a block hash), a height, or an account name. */
  readonly kind: 'hash' | 'height' | 'account'
  /** The transaction index's state: with `disabled` (`--no-index`) no transaction or transfer is answered. */
  readonly index: 'complete' | 'catching-up' | 'disabled'
  readonly blocks: readonly FoundBlock[]
  readonly transactions: readonly FoundTransaction[]
  readonly transfers: readonly FoundTransfer[]
  /** More transfers are stored than the search shows (the newest `SEARCH_TRANSFERS`). */
  readonly moreTransfers: boolean
}

/** Transfers the search answers at most, newest first; the transfer pages have the rest. */
export const SEARCH_TRANSFERS = 20
/** Blocks one chain answers at one height at most (a height holds its winner and a few orphans). */
const BLOCKS_PER_HEIGHT = 10
const MAX_QUERY = 256

const standing = (block: IndexedBlock): { canonical: boolean; depth: number } => ({ canonical: block.canonical, depth: block.depth })

/**
 * Answers a search of the status page from the store and its transaction index, one lookup per
 * reading of the text: a 43-character hash is looked up as a request key and as a block hash; digits
 * are a height on every chain; anything else is an account's transfers. The work is bounded by the
 * answer: one key lookup, one height per chain, or one page of transfers.
 */
export async function searchNode(store: ChainStore, text: unknown): Promise<SearchAnswer> {
  if (typeof text !== 'string' || text.trim() === '' || text.length > MAX_QUERY)
    throw new InvalidQueryError(
      `Expected query parameter q once: a request key, a block hash, a height or an account (1 to ${MAX_QUERY} characters), received ${JSON.stringify(text ?? null).slice(0, 80)}`,
    )
  const query = text.trim()
  const index = store.index
  const state = index.status().state
  const empty = { query, index: state, blocks: [], transactions: [], transfers: [], moreTransfers: false } as const
  if (isHashText(query)) {
    const [blocks, transactions] = await Promise.all([blockByHash(store, query), state === 'disabled' ? [] : copies(index, query)])
    return { ...empty, kind: 'hash', blocks, transactions }
  }
  if (/^[0-9]{1,15}$/.test(query)) return { ...empty, kind: 'height', blocks: await blocksAt(store, Number(query)) }
  if (state === 'disabled') return { ...empty, kind: 'account' }
  const page = await index.transfers({ account: query, limit: SEARCH_TRANSFERS })
  const transfers = page.items.map((transfer) => ({
    requestKey: transfer.requestKey,
    chain: transfer.block.chain,
    height: transfer.block.height,
    blockHash: transfer.block.hash,
    token: transfer.token,
    sender: transfer.sender,
    receiver: transfer.receiver,
    amount: transfer.amount,
    ...standing(transfer.block),
  }))
  return { ...empty, kind: 'account', transfers, moreTransfers: page.next !== undefined }
}

async function copies(index: TransactionIndex, requestKey: string): Promise<FoundTransaction[]> {
  const lookup = await index.transaction(requestKey)
  return lookup.copies.map((copy) => ({
    requestKey,
    chain: copy.block.chain,
    height: copy.block.height,
    blockHash: copy.block.hash,
    position: copy.position,
    ...standing(copy.block),
  }))
}

// Canonical: the block is the ancestor-or-self of its chain's head in the node's cut at its height.
async function found(store: ChainStore, chain: number, height: number, hash: Buffer): Promise<FoundBlock> {
  const head = store.cut().get(chain)
  const ancestor = head === undefined || head.height < height ? undefined : await store.ancestorAt(head.hash, height)
  return {
    chain,
    height,
    hash: encodeHash(hash),
    canonical: ancestor !== undefined && Buffer.compare(ancestor.hash, hash) === 0,
    depth: head === undefined ? 0 : head.height - height,
  }
}

async function blockByHash(store: ChainStore, text: string): Promise<FoundBlock[]> {
  const header = await store.getHeader(decodeHash(text))
  return header === undefined ? [] : [await found(store, header.chainId, header.height, header.hash)]
}

async function blocksAt(store: ChainStore, height: number): Promise<FoundBlock[]> {
  const chains = [...store.cut().keys()].sort((a, b) => a - b)
  const perChain = await Promise.all(
    chains.map(async (chain) => {
      const hashes: Buffer[] = []
      for await (const item of store.range({ chain, minheight: height, maxheight: height })) {
        hashes.push(item.hash)
        if (hashes.length === BLOCKS_PER_HEIGHT) break
      }
      return Promise.all(hashes.map((hash) => found(store, chain, height, hash)))
    }),
  )
  return perChain.flat().sort((a, b) => a.chain - b.chain || Number(b.canonical) - Number(a.canonical))
}
