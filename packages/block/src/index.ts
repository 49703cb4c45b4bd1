// The exact-JSON rule of featureFlags lives in @weft/api (the light client reads with it); re-exported for the model's users.
export { parseJsonExact, stringifyJsonExact } from '@weft/api'
// The u256 codec lives in @weft/hash-text (the light client needs it without the block model); re-exported for the model's users.
export { decodeU256, encodeU256, MAX_U256 } from '@weft/hash-text'
export { blockFromJson, blockFromJsonText, blockToJson, blockToJsonText, payloadToJsonText } from './block-json.js'
export { type BlockWork, checkBlockWork, checkHeaderWork, type WorkViolation } from './block-work.js'
export {
  CHAINWEB_NODE_CHAIN_ORDER,
  cutChains,
  cutHeightLimit,
  HASH_MAP_CHAIN_ORDER,
  inChainwebNodeOrder,
  inHashMapOrder,
} from './cut-rules.js'
export {
  adjustTarget,
  effectiveWindow,
  expectedEpochStart,
  expectedTarget,
  isLastInEpoch,
  legacyAdjustTarget,
} from './difficulty-adjustment.js'
export {
  BlockModelError,
  BlockValidationError,
  type BlockViolationCode,
  blockViolationCodes,
  InvalidEncodingError,
  UnknownChainError,
  UnknownNetworkError,
} from './errors.js'
export { compareHeads, type HeadCandidate, isBetterHead } from './fork-choice.js'
export {
  addVote,
  childForkState,
  countVotes,
  decideVotes,
  forkEpochBlocks,
  forkNumberOf,
  forkState,
  forkVotesOf,
  isForkEpochStart,
  isForkVoteBlock,
  VOTE_COUNT_BLOCKS,
  VOTE_STEP,
} from './fork-state.js'
export { allChains, EASY_TARGET, emptyPayload, genesisBlock, genesisBlocks } from './genesis.js'
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
} from './header-json.js'
export { isGenesisHeader } from './header-rules.js'
export {
  type ChildHeaderFields,
  childHeader,
  findNonce,
  mineChildHeader,
  mineHeader,
  type PayloadContents,
  withPayloadHashes,
} from './mine.js'
export { type ForkHeight, isBefore, type NetworkRules, networkRules } from './network-rules.js'
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
export { networkOpening } from './opening.js'
export { type AdjacentParents, braidingViolations, type ValidationContext, validateBlock, validateHeader } from './validate.js'
