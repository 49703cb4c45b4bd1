export {
  CorruptStoreError,
  CursorNotFoundError,
  InvalidBlockError,
  ListenerError,
  MissingParentError,
  NetworkMismatchError,
  StoreClosedError,
  StoreError,
  StoreOpenError,
  type BlockViolation,
} from './errors.js'
export type { HeaderRef, HeaderSource } from '@weft/traversal'
export type { RangeItem } from './keys.js'
export {
  isBetterHead,
  openStore,
  type ChainStore,
  type JoinedBlock,
  type OpenStoreOptions,
  type RangeQuery,
  type StoredHeader,
  type StoreEvent,
  type StoreListener,
} from './store.js'
