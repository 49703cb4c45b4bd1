import { type Block, type BlockWork, checkBlockWork, encodeHeader, headerToJsonText, payloadToJsonText, txCount } from '@weft/block'

/**
 * What writing a block needs beyond its place in the chain, computed from the block alone: its
 * hashing checks (nearly all of validation's cost) and the encodings the store writes. A validation
 * pool computes it on worker threads; small batches compute it inline.
 */
export interface EncodedBlock {
  readonly work: BlockWork
  readonly headerBinary: Buffer
  readonly headerJson: Buffer
  /** Handed to classic-level as text: it encodes it while copying it into the batch. */
  readonly payloadJson: string
  readonly txCount: number
}

/** The hashing checks and the stored encodings of `block`. */
export function encodeBlock(block: Block): EncodedBlock {
  return {
    work: checkBlockWork(block),
    headerBinary: encodeHeader(block.header),
    headerJson: Buffer.from(headerToJsonText(block.header, 'spec')),
    payloadJson: payloadToJsonText(block.payload),
    txCount: txCount(block.payload),
  }
}

/** An `EncodedBlock` after a trip between threads: its buffers arrive as plain `Uint8Array`s, wrapped again without a copy. */
export function fromThread(encoded: EncodedBlock): EncodedBlock {
  const buffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return { ...encoded, headerBinary: buffer(encoded.headerBinary), headerJson: buffer(encoded.headerJson) }
}
