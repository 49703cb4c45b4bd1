import { BlockPage, ChainwebBlockPage, ChainwebFullBlock, FullBlock } from './block.js'
import { BlockHeader, ChainwebBlockHeader, ChainwebHeaderUpdate, HeaderUpdate } from './header.js'
import { BlockQuery, BranchBounds, Cut, KeyNotFound, NodeInfo, Problem } from './node.js'
import { Payload, PayloadWithOutputs } from './payload.js'
import { BlockHash, ChainId, CursorText, HashInput, NetworkName, Profile, U256Text } from './primitives.js'

export { BlockPage, ChainwebBlockPage, ChainwebFullBlock, FullBlock, Page } from './block.js'
export { BlockHeader, ChainwebBlockHeader, ChainwebHeaderUpdate, HeaderUpdate } from './header.js'
export { BlockQuery, BranchBounds, Cut, KeyNotFound, NodeInfo, Problem } from './node.js'
export { Payload, PayloadWithOutputs } from './payload.js'
export { BlockHash, ChainId, CursorText, HashInput, NetworkName, Profile, U256Text } from './primitives.js'

/** Every schema by name, e.g. for the `components.schemas` of an OpenAPI document. */
export const schemas = {
  Profile,
  NetworkName,
  BlockHash,
  HashInput,
  ChainId,
  U256Text,
  CursorText,
  BlockHeader,
  ChainwebBlockHeader,
  PayloadWithOutputs,
  Payload,
  FullBlock,
  ChainwebFullBlock,
  BlockPage,
  ChainwebBlockPage,
  NodeInfo,
  HeaderUpdate,
  ChainwebHeaderUpdate,
  BranchBounds,
  BlockQuery,
  Cut,
  Problem,
  KeyNotFound,
} as const
