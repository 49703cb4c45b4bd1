export type { AncestorSource, HeaderRef, HeaderSource } from '@weft/traversal'
export type { ChainStore, CutPolicy, JoinedBlock, RangeQuery, StoredHeader, StoreEvent, StoreListener } from './chain-store.js'
export type { StoreDamage } from './damage-watch.js'
export { type DeviceReadAhead, deviceReadAhead } from './device-read-ahead.js'
export { type DiskChecks, freeBytesOf, type WriteState } from './disk-guard.js'
export { type EngineLevel, type EngineStats, engineStatsOf } from './engine-stats.js'
export {
  type BlockViolation,
  BrokenRulesError,
  CorruptStoreError,
  CursorNotFoundError,
  IndexDisabledError,
  InvalidBlockError,
  InvalidCutError,
  InvalidSnapshotError,
  ListenerError,
  MissingAdjacentError,
  MissingParentError,
  NetworkMismatchError,
  SnapshotTargetError,
  StoreClosedError,
  StoreDamagedError,
  StoreError,
  StoreFullError,
  StoreOpenError,
  type StoreOpenReason,
  UnsupportedLayoutError,
} from './errors.js'
export type { RangeItem } from './keys.js'
export { type OpenStoreOptions, openStore } from './open-store.js'
export { type ChainRepair, type RepairStoreOptions, repairStore, type StoreRepair } from './repair/repair-store.js'
export { RULES_VERSION, type RulesCheckProgress } from './rules-check.js'
export { type ImportedSnapshot, type ImportSnapshotOptions, importSnapshot } from './snapshot/import-snapshot.js'
export type { StoreSnapshot } from './snapshot/read-snapshot.js'
export {
  maxSnapshotLineBytes,
  readSnapshotFile,
  type SnapshotHeader,
  type SnapshotPart,
  snapshotFileStream,
} from './snapshot/snapshot-file.js'
export { MAX_PAGE_LIMIT } from './tx-index/index-pages.js'
export type {
  BlockWithTransactions,
  EventCopy,
  IndexedBlock,
  IndexPage,
  IndexStatus,
  PageOptions,
  TransactionCopy,
  TransactionIndex,
  TransactionLookup,
  TransferCopy,
} from './tx-index/index-types.js'
export { MAX_MODULE_NAMES } from './tx-index/transaction-index.js'
