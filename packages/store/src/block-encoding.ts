import {
  type Block,
  type BlockWork,
  blockFromJsonText,
  checkBlockWork,
  decodeHeader,
  encodeHeader,
  type Header,
  headerToJsonText,
  payloadToJsonText,
  txCount,
} from '@weft/block'
import { blockIndexOperations } from './index-operations.js'
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
  /** The block's `@weft/index` entries, packed (`unpackIndexOperations`); absent when the store keeps no index. */
  readonly index?: Uint8Array
}

/** The hashing checks and the stored record of `block`, with its index entries when `index`. */
export function encodeBlock(block: Block, index = false): EncodedBlock {
  const count = txCount(block.payload)
  const record = encodeBlockRecord({
    payloadHash: block.header.payloadHash,
    txCount: count,
    headerBinary: encodeHeader(block.header),
    headerJson: Buffer.from(headerToJsonText(block.header, 'spec')),
    payloadJson: payloadToJsonText(block.payload),
  })
  const work = checkBlockWork(block)
  const encoded = { work, record, headerJson: decodeBlockRecord(record).headerJson, txCount: count }
  // Derived once the hashes hold, so that the payload is the block's. The proof of work is the
  // refusal's to judge: a genesis block need not meet its target (those of chains that join the graph
  // later, mainnet01's chains 10-19 among them, do not), any other block that misses it is refused
  // and its entries are never written.
  if (!index || !hashesHold(work)) return encoded
  const { chainId, height, hash } = block.header
  return { ...encoded, index: blockIndexOperations(chainId, height, hash, block.payload) }
}

// Whether the block and payload hashes are the ones computed: only then can the payload be read as the block's.
const hashesHold = (work: BlockWork): boolean => work.blockHash === undefined && work.payloadHash === undefined

/** An `EncodedBlock` after a trip between threads: its record arrives as a plain `Uint8Array`, wrapped again without a copy. */
export function fromThread(encoded: EncodedBlock): EncodedBlock {
  const record = Buffer.from(encoded.record.buffer, encoded.record.byteOffset, encoded.record.byteLength)
  const decoded = { work: encoded.work, record, headerJson: decodeBlockRecord(record).headerJson, txCount: encoded.txCount }
  return encoded.index === undefined ? decoded : { ...decoded, index: encoded.index }
}

/** What a block's JSON text gave: its encoding, or why the text is not a block. */
export type EncodedText = EncodedBlock | { readonly unreadable: string }

/** `encodeBlock` of the block whose full-block JSON text (either profile) is `text`; the parse runs here too. */
export function encodeBlockText(text: Uint8Array, index = false): EncodedText {
  let block: Block
  try {
    block = blockFromJsonText(text)
  } catch (error) {
    return { unreadable: (error as Error).message }
  }
  return encodeBlock(block, index)
}

/** The header of an encoded block, decoded from the binary in its record. */
export function encodedHeader(encoded: EncodedBlock): Header {
  return decodeHeader(decodeBlockRecord(encoded.record).headerBinary)
}
