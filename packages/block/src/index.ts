export type { Block, Header } from './header.js'
export {
  BlockModelError,
  BlockValidationError,
  InvalidEncodingError,
  InvalidHashError,
  UnknownChainError,
  UnknownNetworkError,
  type BlockViolationCode,
} from './errors.js'
export { decodeHash, encodeHash, isHashText } from './hash-text.js'
export { MAX_U256, decodeU256, encodeU256 } from './u256.js'
export { decodeHeader, encodeHeader, headerByteLength } from './header-binary.js'
export {
  headerFromJson,
  headerFromJsonText,
  headerJsonForProfile,
  headerToJson,
  headerToJsonText,
  parseJsonExact,
  type AnyHeaderJson,
} from './header-json.js'
export { blockFromJson, blockFromJsonText, blockToJson, blockToJsonText, payloadToJsonText } from './block-json.js'
export {
  computeBlockHash,
  computePayloadHashes,
  difficulty,
  genesisParentHash,
  payloadHashesMatch,
  powHash,
  powHashHex,
  targetHex,
  txCount,
} from './hashing.js'
export {
  PETERSEN_GRAPH,
  SINGLETON_GRAPH,
  TWENTY_CHAIN_GRAPH,
  adjacentChainsAt,
  chainsAt,
  genesisHeight,
  getNetwork,
  graphAt,
  networkOfVersionCode,
  type ChainGraph,
  type Network,
} from './networks.js'
export { EASY_TARGET, allChains, genesisBlock, genesisBlocks } from './genesis.js'
export { findNonce, mineChildHeader, mineHeader, withPayloadHashes, type ChildHeaderFields, type PayloadContents } from './mine.js'
export { validateBlock } from './validate.js'
