export type { HeaderRef, HeaderSource } from '@weft/traversal'
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
export {
  type ChainStore,
  isBetterHead,
  type JoinedBlock,
  type OpenStoreOptions,
  openStore,
  type RangeQuery,
  type StoredHeader,
  type StoreEvent,
  type StoreListener,
} from './store.js'
