// A worker thread of the validation pool: the hashing checks and encodings of a chunk of blocks.
import type { Block } from '@weft/block'
import { type EncodedBlock, type EncodedText, encodeBlock, encodeBlockText } from './block-encoding.js'

/** Piscina's entry: encodes every block of the chunk, in order. */
export default function encodeChunk(blocks: readonly Block[]): EncodedBlock[] {
  return blocks.map(encodeBlock)
}

/** The same for blocks given as their JSON texts: the parse of each runs here too. */
export function encodeTextChunk(texts: readonly Uint8Array[]): EncodedText[] {
  return texts.map(encodeBlockText)
}
