export { canonicalDecimal, canonicalInteger, MAX_DECIMAL_LENGTH } from './decimal.js'
export {
  type BlockEntries,
  COINBASE_POSITION,
  deriveEntries,
  type EventEntry,
  type IndexableBlock,
  type TransactionEntry,
  type TransferEntry,
} from './derive.js'
export { IndexError, InvalidBlockRefError, InvalidIndexKeyError, InvalidIndexQueryError } from './errors.js'
export { BLOCK_HASH_PREFIX_BYTES, INDEX_PREFIX, IndexKind, MAX_TEXT_BYTES, REQUEST_KEY_PREFIX_BYTES } from './key-codec.js'
export {
  type BlockPointer,
  type DecodedEntry,
  decodeEntry,
  type EventPlace,
  encodeEntries,
  type IndexOperation,
  indexOperations,
  requestKeyPrefix,
  type TransferPlace,
} from './keys.js'
export {
  accountRange,
  accountTokensRange,
  allEventsRange,
  blockRange,
  decodeCursor,
  encodeCursor,
  eventRange,
  type IndexCursor,
  type KeyRange,
  moduleEventsRange,
  type PageQuery,
  pactRange,
  transactionRange,
} from './ranges.js'
