import type { Block, Header, Network } from '@weft/block'
import type { AncestorSource, HeaderRef } from '@weft/traversal'
import type { RangeItem } from './keys.js'

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

/** A block that newly joined the winning branch of its chain. */
export interface JoinedBlock {
  header: Header
  headerJson: Buffer
  txCount: number
}

/** What the change feed announces. */
export type StoreEvent =
  | { type: 'inserted'; header: Header; headerJson: Buffer; txCount: number }
  | { type: 'best'; chain: number; head: Header; joined: JoinedBlock[] }

/** A synchronous change-feed listener. */
export type StoreListener = (event: StoreEvent) => void

/** The chain store of one network; as a traversal `AncestorSource`, it finds ancestors by range reads. */
export interface ChainStore extends AncestorSource {
  readonly network: Network
  insert(block: Block): Promise<{ inserted: boolean }>
  insertMany(blocks: readonly Block[]): Promise<number>
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
  cut(): ReadonlyMap<number, Header>
  subscribe(listener: StoreListener): () => void
  close(): Promise<void>
}
