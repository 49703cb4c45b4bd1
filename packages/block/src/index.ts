export { blockFromJson, blockFromJsonText, blockToJson, blockToJsonText, payloadToJsonText } from './block-json.js'
export {
  CHAINWEB_NODE_CHAIN_ORDER,
  cutChains,
  cutHeightLimit,
  HASH_MAP_CHAIN_ORDER,
  inChainwebNodeOrder,
  inHashMapOrder,
} from './cut-rules.js'
export {
  BlockModelError,
  BlockValidationError,
  type BlockViolationCode,
  InvalidEncodingError,
  UnknownChainError,
  UnknownNetworkError,
} from './errors.js'
export { compareHeads, type HeadCandidate, isBetterHead } from './fork-choice.js'
export { allChains, EASY_TARGET, genesisBlock, genesisBlocks } from './genesis.js'
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
export type { Block, Header } from './header.js'
export { decodeHeader, encodeHeader, headerByteLength } from './header-binary.js'
export {
  type AnyHeaderJson,
  headerFromJson,
  headerFromJsonText,
  headerJsonForProfile,
  headerToJson,
  headerToJsonText,
  parseJsonExact,
  stringifyJsonExact,
} from './header-json.js'
export { type ChildHeaderFields, findNonce, mineChildHeader, mineHeader, type PayloadContents, withPayloadHashes } from './mine.js'
export {
  adjacentChainsAt,
  blockAdjacentChains,
  type ChainGraph,
  chainsAt,
  genesisHeight,
  getNetwork,
  graphAt,
  type Network,
  networkOfVersionCode,
  PETERSEN_GRAPH,
  SINGLETON_GRAPH,
  TWENTY_CHAIN_GRAPH,
} from './networks.js'
export { decodeU256, encodeU256, MAX_U256 } from './u256.js'
export { type BlockWork, checkBlockWork, validateBlock, validateHeader, type WorkViolation } from './validate.js'
