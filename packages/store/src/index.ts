export type { AncestorSource, HeaderRef, HeaderSource } from '@weft/traversal'
export type { ChainStore, CutPolicy, JoinedBlock, RangeQuery, StoredHeader, StoreEvent, StoreListener } from './chain-store.js'
export {
  type BlockViolation,
  CorruptStoreError,
  CursorNotFoundError,
  InvalidBlockError,
  InvalidCutError,
  ListenerError,
  MissingAdjacentError,
  MissingParentError,
  NetworkMismatchError,
  StoreClosedError,
  StoreError,
  StoreOpenError,
  UnsupportedLayoutError,
} from './errors.js'
export type { RangeItem } from './keys.js'
export { type OpenStoreOptions, openStore } from './open-store.js'
