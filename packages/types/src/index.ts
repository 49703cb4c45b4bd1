import { BlockPage, ChainwebBlockPage, ChainwebFullBlock, FullBlock } from './block.js'
import { BlockHeader, ChainwebBlockHeader, ChainwebHeaderUpdate, HeaderUpdate } from './header.js'
import { BlockQuery, BranchBounds, Cut, CutQuery, KeyNotFound, NodeInfo, Problem } from './node.js'
import { Payload, PayloadBatch, PayloadWithOutputs } from './payload.js'
import { BlockHash, ChainId, CursorText, DigitsText, HashInput, NetworkName, Profile, U256Text } from './primitives.js'

export { BlockPage, ChainwebBlockPage, ChainwebFullBlock, FullBlock, PageOf } from './block.js'
export { BlockHeader, ChainwebBlockHeader, ChainwebHeaderUpdate, HeaderUpdate } from './header.js'
export { BlockQuery, BranchBounds, Cut, CutQuery, KeyNotFound, NodeInfo, Problem } from './node.js'
export { Payload, PayloadBatch, PayloadWithOutputs } from './payload.js'
export {
  BlockHash,
  ChainId,
  CursorText,
  DigitsText,
  HashInput,
  NetworkName,
  networkNames,
  Profile,
  profileNames,
  U256Text,
} from './primitives.js'

/** Every schema by name, e.g. for the `components.schemas` of an OpenAPI document. */
export const schemas = {
  Profile,
  NetworkName,
  BlockHash,
  HashInput,
  ChainId,
  U256Text,
  CursorText,
  DigitsText,
  BlockHeader,
  ChainwebBlockHeader,
  PayloadWithOutputs,
  Payload,
  PayloadBatch,
  FullBlock,
  ChainwebFullBlock,
  BlockPage,
  ChainwebBlockPage,
  NodeInfo,
  HeaderUpdate,
  ChainwebHeaderUpdate,
  BranchBounds,
  BlockQuery,
  CutQuery,
  Cut,
  Problem,
  KeyNotFound,
} as const
