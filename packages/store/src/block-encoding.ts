import { type Block, type BlockWork, checkBlockWork, encodeHeader, headerToJsonText, payloadToJsonText, txCount } from '@weft/block'
import { decodeBlockRecord, encodeBlockRecord } from './keys.js'

/**
 * What writing a block needs beyond its place in the chain, computed from the block alone: its
 * hashing checks (nearly all of validation's cost) and the record the store writes. A validation
 * pool computes it on worker threads; small batches compute it inline.
 */
export interface EncodedBlock {
  readonly work: BlockWork
  /** The block record: header binary, header JSON and payload JSON (see keys.ts). */
  readonly record: Buffer
  /** The spec-profile header JSON: a view into `record`. */
  readonly headerJson: Buffer
  readonly txCount: number
}

/** The hashing checks and the stored record of `block`. */
export function encodeBlock(block: Block): EncodedBlock {
  const count = txCount(block.payload)
  const record = encodeBlockRecord({
    payloadHash: block.header.payloadHash,
    txCount: count,
    headerBinary: encodeHeader(block.header),
    headerJson: Buffer.from(headerToJsonText(block.header, 'spec')),
    payloadJson: payloadToJsonText(block.payload),
  })
  return { work: checkBlockWork(block), record, headerJson: decodeBlockRecord(record).headerJson, txCount: count }
}

/** An `EncodedBlock` after a trip between threads: its record arrives as a plain `Uint8Array`, wrapped again without a copy. */
export function fromThread(encoded: EncodedBlock): EncodedBlock {
  const record = Buffer.from(encoded.record.buffer, encoded.record.byteOffset, encoded.record.byteLength)
  return { work: encoded.work, record, headerJson: decodeBlockRecord(record).headerJson, txCount: encoded.txCount }
}
