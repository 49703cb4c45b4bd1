export { Braid, type BraidBlock, type BraidTransition, type NeighboursAt } from './braid.js'
export { BraidMiner, type BraidMinerOptions, loadWindows, type MiningDraws, mineChild } from './braid-miner.js'
export { childCreationTime, childFeatureFlags, devnetNetworks } from './chain-rules.js'
export type { PendingCrossChain } from './cross-chain.js'
export { ChainNotReadyError, DevnetError, InvalidDevnetOptionError, ReorgNotFoundError, TargetTooHardError } from './errors.js'
export { DEFAULT_SEED, type FillOptions, type FillSummary, fill } from './fill.js'
export { type MineBlockInput, mineBlock } from './mine.js'
export { type PactDecimal, pactDecimal, pactInteger, RawJson, stringifyPactJson } from './pact-json.js'
export {
  type AccountPool,
  COINBASE_REWARD,
  createAccountPool,
  GAS_PRICE,
  type PayloadContext,
  syntheticPayload,
  transferEvent,
} from './payload.js'
export { createProducer, type Producer, type ProducerOptions } from './producer.js'
export { createRandom, type Random } from './random.js'
export { type ChainReorg, type ReorgOptions, type ReorgSummary, reorg } from './reorg.js'
export { runCli } from './run-cli.js'
