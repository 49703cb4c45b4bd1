import type { Block, Header, Network } from '@weft/block'
import type { AncestorSource, HeaderRef } from '@weft/traversal'
import type { StoreDamage } from './damage-watch.js'
import type { WriteState } from './disk-guard.js'
import type { EngineStats } from './engine-stats.js'
import type { RangeItem } from './keys.js'
import type { StoreSnapshot } from './snapshot/read-snapshot.js'
import type { TransactionIndex } from './tx-index/index-types.js'

/**
 * How the node's cut is chosen. `fork-choice` (devnet, a store of its own): the best head of every
 * chain, limited to the chains of the graph in force at the lowest of them. `adopted` (upstream
 * mode): the cut an upstream node stands on, set by `adoptCut` once the store holds its heads;
 * inserting blocks does not move it.
 */
export type CutPolicy = 'fork-choice' | 'adopted'

/** A decoded header with the spec-profile JSON bytes stored beside it. */
export interface StoredHeader {
  header: Header
  headerJson: Buffer
}

/** An ascending range of one chain, by (height, raw hash). */
export interface RangeQuery {
  chain: number
  minheight?: number
  maxheight?: number
  /** Start at (inclusive) or just after (exclusive) this block; it must be stored on `chain`. */
  start?: { hash: Uint8Array; inclusive: boolean }
}

/** A block that newly joined the node's cut, with what announcing it needs. */
export interface JoinedBlock {
  header: Header
  headerJson: Buffer
  txCount: number
}

/**
 * What the change feed announces: `inserted`, every block written, in insertion order (orphans
 * included); `cut`, the node's cut after a write or an adoption that moved it, with the blocks that
 * joined it, ancestors first (by height, then chain), each once. One write announces only the cut it
 * leaves: a head that the same write replaced never joins.
 */
export type StoreEvent =
  | { type: 'inserted'; header: Header; headerJson: Buffer; txCount: number }
  | { type: 'cut'; cut: ReadonlyMap<number, Header>; joined: JoinedBlock[] }

/** A synchronous change-feed listener. */
export type StoreListener = (event: StoreEvent) => void

/** The chain store of one network; as a traversal `AncestorSource`, it finds ancestors by range reads. */
export interface ChainStore extends AncestorSource {
  readonly network: Network
  /** Transactions, events and transfers of the stored blocks, each copy marked canonical or orphaned (see README, "Transaction index"). */
  readonly index: TransactionIndex
  insert(block: Block): Promise<{ inserted: boolean }>
  insertMany(blocks: readonly Block[]): Promise<number>
  /**
   * `insertMany` of blocks given as their full-block JSON texts (either profile), as a snapshot or
   * a page holds them: the parse runs on the validation threads with the hashing. A text that is
   * not a block throws `InvalidEncodingError` (`INVALID_ENCODING`) once the blocks before it are written.
   */
  insertManyJson(texts: readonly Uint8Array[]): Promise<number>
  getRefs(hashes: readonly Uint8Array[]): Promise<Array<HeaderRef | undefined>>
  /** The ancestor-or-self of `hash` at `height`, read a window of heights at a time. */
  ancestorAt(hash: Uint8Array, height: number): Promise<HeaderRef | undefined>
  getHeader(hash: Uint8Array): Promise<Header | undefined>
  getHeaderBinary(hash: Uint8Array): Promise<Buffer | undefined>
  getStoredHeader(hash: Uint8Array): Promise<StoredHeader | undefined>
  getBlockJson(hash: Uint8Array): Promise<Buffer | undefined>
  getBlocksJson(hashes: readonly Uint8Array[]): Promise<Array<Buffer | undefined>>
  getPayloadJson(payloadHash: Uint8Array): Promise<Buffer | undefined>
  range(query: RangeQuery): AsyncIterable<RangeItem>
  readRangeBlocks(items: readonly RangeItem[]): Promise<Buffer[]>
  /** `fork-choice` or `adopted`: how the node's cut is chosen (see `openStore`). */
  readonly cutPolicy: CutPolicy
  /** The node's cut: one head per chain of the graph in force at its lowest head (see `CutPolicy`). */
  cut(): ReadonlyMap<number, Header>
  /** Every chain's best stored block (highest weight, ties to the lower raw hash), chains outside the cut included. */
  heads(): ReadonlyMap<number, Header>
  /** Adopted-cut stores only: makes the cut of these heads (chain -> hash, every one stored) the node's cut, persisted. */
  adoptCut(hashes: ReadonlyMap<number, Uint8Array>): Promise<void>
  /** A consistent point-in-time view of the store (its cut and every block), for a snapshot; the store keeps taking writes meanwhile. */
  snapshot(): StoreSnapshot
  /**
   * What the storage engine reports of itself (LevelDB: its levels, what it wrote since the store
   * opened, its memory). Optional: a store on another engine may have nothing to say.
   */
  engineStats?(): EngineStats
  /** Whether the store takes writes: not while its disk is full (`STORE_FULL`), until a check finds room again. */
  writeState(): WriteState
  /**
   * The first damaged table file a read or write met since the store opened (`STORE_DAMAGED`), if
   * any (a store on an engine that never meets one answers undefined).
   */
  damage(): StoreDamage | undefined
  /** Resolves once the store takes writes (at once when it does); rejects with `StoreClosedError` if it closes first. */
  whenWritable(): Promise<void>
  subscribe(listener: StoreListener): () => void
  close(): Promise<void>
}
