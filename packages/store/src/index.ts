export type { AncestorSource, HeaderRef, HeaderSource } from '@weft/traversal'
export type { ChainStore, JoinedBlock, RangeQuery, StoredHeader, StoreEvent, StoreListener } from './chain-store.js'
export {
  type BlockViolation,
  CorruptStoreError,
  CursorNotFoundError,
  InvalidBlockError,
  ListenerError,
  MissingParentError,
  NetworkMismatchError,
  StoreClosedError,
  StoreError,
  StoreOpenError,
} from './errors.js'
export type { RangeItem } from './keys.js'
export { type OpenStoreOptions, openStore } from './open-store.js'
