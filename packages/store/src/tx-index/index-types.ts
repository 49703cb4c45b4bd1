// The read API of the transaction index (`ChainStore.index`): what it answers, copy by copy.

/** A stored block as an index answer names it, and where it stands against the node's cut at the time of the read. */
export interface IndexedBlock {
  readonly chain: number
  readonly height: number
  /** The block hash, unpadded base64url. */
  readonly hash: string
  readonly parent: string
  /** Microseconds since the POSIX epoch. */
  readonly creationTime: number
  /** On its chain's winning branch: the block is an ancestor-or-self of the chain's head in the node's cut. */
  readonly canonical: boolean
  /** The chain head's height minus the block's: 0 for the head; negative for a block above it (stored ahead of an adopted cut). */
  readonly depth: number
}

/** One copy of a transaction: the block that holds it and what the payload says of it. */
export interface TransactionCopy {
  readonly requestKey: string
  readonly block: IndexedBlock
  /** Its index in the payload's transactions. */
  readonly position: number
  /** The signed command as the payload holds it: the JSON text of `{hash, sigs, cmd}`. */
  readonly command: string
  /** The command result as the node wrote it in the payload: the JSON text of `{gas, result, reqKey, logs, events, metaData, continuation, txId}`. */
  readonly result: string
}

/** Every stored copy of a transaction (orphans included), canonical copies first, then newest first. */
export interface TransactionLookup {
  readonly copies: TransactionCopy[]
  /** False while the index is catching up on a chain asked about: a copy in a block not indexed yet is missing. */
  readonly complete: boolean
}

/** One event of a transaction's (or the coinbase's) output. */
export interface EventCopy {
  readonly block: IndexedBlock
  /** Its transaction's index in the payload, -1 for the coinbase. */
  readonly position: number
  /** Its index in its output's `events`. */
  readonly index: number
  /** The request key of its transaction; the coinbase's is the parent hash as a JSON string, base64url. */
  readonly requestKey: string
  /** The module's qualified name (`coin`, `free.crankk01`). */
  readonly module: string
  readonly name: string
  /** The exact JSON text of the parameters array: amounts keep every digit. */
  readonly params: string
  readonly moduleHash: string | null
}

/** One fungible transfer (a `<module>.TRANSFER` event with sender, receiver and amount), as one account sees it. */
export interface TransferCopy {
  readonly block: IndexedBlock
  readonly position: number
  readonly index: number
  readonly requestKey: string
  /** The fungible's qualified module name: `coin` for KDA. */
  readonly token: string
  /** `""` for a cross-chain transfer's mint and the coinbase's reward. */
  readonly sender: string
  /** `""` for a cross-chain transfer's burn. */
  readonly receiver: string
  /** Exact decimal text, canonical: no exponent, no leading or trailing zeros. */
  readonly amount: string
  /** On a leg with an empty side in a pact's step: the pact id that links a cross-chain transfer's two legs. */
  readonly pactId: string | null
  /**
   * A cross-chain leg's other end: the target chain and receiver of a burn (the output's
   * `TRANSFER_XCHAIN` of the same module), the source chain and sender of a mint (`TRANSFER_XCHAIN_RECD`).
   */
  readonly crossChain: { readonly chain: string; readonly account: string } | null
  /** The queried account sent it. */
  readonly sent: boolean
  /** The queried account received it (both for a transfer to itself). */
  readonly received: boolean
}

/** A block that holds transactions. */
export interface BlockWithTransactions {
  readonly block: IndexedBlock
  readonly transactionCount: number
}

/** One page of an index answer, newest first. */
export interface IndexPage<T> {
  readonly items: T[]
  /**
   * Where the next page starts (a keyset cursor of `@weft/index`, as unpadded base64url), or
   * undefined at the end. Blocks that arrive meanwhile sort before it: the next page neither skips
   * nor repeats an item. A page may be short (or empty) and still have a next one: see `scanLimit`.
   */
  readonly next: string | undefined
  /**
   * Set while the index is catching up, when the page stopped at the height below which it is not
   * complete yet (the highest such height among the chains asked about): items below it are not
   * answered, and `next` continues from there once the catch-up has passed.
   */
  readonly incompleteBelow?: number
}

/** The paging and filters every page query takes. */
export interface PageOptions {
  /** Items at most (default 100, at most 1000). */
  readonly limit?: number
  /** The `next` of the page before. */
  readonly next?: string
  /** Height bounds, both included. */
  readonly minheight?: number
  readonly maxheight?: number
  /** Only this chain's blocks. */
  readonly chain?: number
  /** Only copies on the winning branch (default: orphaned copies too, marked). */
  readonly canonicalOnly?: boolean
  /**
   * Index entries examined at most (default 10,000): past it the page ends early with a `next`, so
   * that a filter that rejects nearly everything (a chain, canonical only) costs a bounded read.
   */
  readonly scanLimit?: number
}

/** Where the index stands, and what its catch-up has done. */
export type IndexStatus =
  | { readonly state: 'complete' }
  | { readonly state: 'disabled' }
  | {
      readonly state: 'catching-up'
      /** Per chain: every block at this height or above has its entries. */
      readonly completeFrom: Readonly<Record<string, number>>
      /** Heights left to index, over every chain. */
      readonly remainingHeights: number
      /** From 0 to 1. */
      readonly progress: number
      /** Blocks the catch-up indexed since the store opened. */
      readonly indexedBlocks: number
      /** Why the catch-up stopped, if it failed; it starts again when the store is opened again. */
      readonly error?: string
    }

/** The transaction, event and transfer index of a store, read with what the store holds. */
export interface TransactionIndex {
  /** Where the index stands: complete, disabled, or catching up (with its progress). */
  status(): IndexStatus
  /** Resolves with the status once no catch-up runs: the index is complete, or the catch-up failed or the store is closing. */
  caughtUp(): Promise<IndexStatus>
  /** Every stored copy of the transaction `requestKey` (on `chain`, or every chain). */
  transaction(requestKey: string, options?: { readonly chain?: number }): Promise<TransactionLookup>
  /** The transactions that continue the pact `pactId` (its later steps: a cross-chain transfer's second leg). */
  pactSteps(pactId: string, options?: { readonly chain?: number }): Promise<TransactionLookup>
  /** The transactions of one stored block, in payload order; undefined when the block is not stored. */
  blockTransactions(hash: string | Uint8Array): Promise<TransactionCopy[] | undefined>
  /** Events of one qualified name (`module` and `name`), or of every name of `module` without `name`; newest first. */
  events(query: { readonly module: string; readonly name?: string } & PageOptions): Promise<IndexPage<EventCopy>>
  /** Transfers of `token` (default `coin`) that `account` sent or received; newest first. */
  transfers(query: { readonly account: string; readonly token?: string } & PageOptions): Promise<IndexPage<TransferCopy>>
  /** Blocks that hold transactions, newest first. */
  blocks(query?: PageOptions): Promise<IndexPage<BlockWithTransactions>>
  /** The event names the index holds (of `module`, or every module), in key order, up to `limit` (default 1000). */
  eventNames(options?: { readonly module?: string; readonly limit?: number }): Promise<Array<{ module: string; name: string }>>
}
