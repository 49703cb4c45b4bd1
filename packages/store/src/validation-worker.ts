// A worker thread of the validation pool: the hashing checks and encodings of a chunk of blocks.
import type { Block } from '@weft/block'
import { type EncodedBlock, type EncodedText, encodeBlock, encodeBlockText } from './block-encoding.js'
import { recordIndexOperations } from './index-operations.js'

/** A chunk of work: the items, and whether their index entries are derived too. */
export interface Chunk<T> {
  readonly items: readonly T[]
  readonly index: boolean
}

/** Piscina's entry: encodes every block of the chunk, in order. */
export default function encodeChunk(chunk: Chunk<Block>): EncodedBlock[] {
  return chunk.items.map((block) => encodeBlock(block, chunk.index))
}

/** The same for blocks given as their JSON texts: the parse of each runs here too. */
export function encodeTextChunk(chunk: Chunk<Uint8Array>): EncodedText[] {
  return chunk.items.map((text) => encodeBlockText(text, chunk.index))
}

/** A stored block's place and payload JSON, whose index entries the catch-up derives. */
export interface StoredPayload {
  readonly chain: number
  readonly height: number
  readonly hash: Uint8Array
  readonly payloadJson: Uint8Array
}

/** The packed index entries of stored blocks, in order (the catch-up of a store written without them). */
export function indexChunk(chunk: Chunk<StoredPayload>): Buffer[] {
  return chunk.items.map(({ chain, height, hash, payloadJson }) => recordIndexOperations(chain, height, hash, payloadJson))
}
