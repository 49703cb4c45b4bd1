import { WeftError } from '@weft/errors'

/** Base class of every error of @weft/store: `code` is stable and documented in the README. */
export abstract class StoreError extends WeftError {}

/** The block's parent is not in the store, and the block is not a genesis block of the network. */
export class MissingParentError extends StoreError {
  static override readonly codes = ['PARENT_NOT_FOUND'] as const
  /** Hash of the block that was refused. */
  readonly hash: Buffer
  /** Hash of the parent that the store does not hold. */
  readonly parent: Buffer
  constructor(hash: Buffer, parent: Buffer, options?: ErrorOptions) {
    super(
      'PARENT_NOT_FOUND',
      `Expected the parent ${parent.toString('base64url')} of block ${hash.toString('base64url')} to be stored, but it is not`,
      options,
    )
    this.hash = hash
    this.parent = parent
  }
}

/** A block names an adjacent block (a neighbour at its parent's height) that the store does not hold. */
export class MissingAdjacentError extends StoreError {
  static override readonly codes = ['ADJACENT_NOT_FOUND'] as const
  /** Hash of the block that was refused. */
  readonly hash: Buffer
  /** The adjacent chain. */
  readonly chain: number
  /** Hash of the adjacent block that the store does not hold. */
  readonly adjacent: Buffer
  constructor(hash: Buffer, chain: number, adjacent: Buffer, options?: ErrorOptions) {
    super(
      'ADJACENT_NOT_FOUND',
      `Expected the adjacent ${adjacent.toString('base64url')} on chain ${chain} of block ${hash.toString('base64url')} to be stored, but it is not`,
      options,
    )
    this.hash = hash
    this.chain = chain
    this.adjacent = adjacent
  }
}

/** `adoptCut` was given a cut the store cannot take: a head it does not hold, or a chain the network lacks. */
export class InvalidCutError extends StoreError {
  static override readonly codes = ['INVALID_CUT'] as const
  constructor(detail: string, options?: ErrorOptions) {
    super('INVALID_CUT', `Expected a cut of stored heads, one per chain of the network: ${detail}`, options)
  }
}

/** The folder holds a store written in another record layout than this version of the store reads. */
export class UnsupportedLayoutError extends StoreError {
  static override readonly codes = ['UNSUPPORTED_LAYOUT'] as const
  constructor(path: string, found: string, expected: string, options?: ErrorOptions) {
    super(
      'UNSUPPORTED_LAYOUT',
      `Expected a store of layout ${expected} in ${path}, found layout ${found}: it was written by another version of Weft; fill a new folder from an upstream or a snapshot`,
      options,
    )
  }
}

/**
 * A store written before Weft checked every rule of chainweb-node 3.2 holds a block that breaks one:
 * the store cannot be used as it is.
 */
export class BrokenRulesError extends StoreError {
  static override readonly codes = ['STORE_BREAKS_RULES'] as const
  readonly violations: readonly BlockViolation[]
  constructor(
    path: string,
    header: { hash: Buffer; chainId: number; height: number },
    violations: readonly BlockViolation[],
    options?: ErrorOptions,
  ) {
    super(
      'STORE_BREAKS_RULES',
      `Expected every block of the store in ${path} to keep the rules of chainweb-node 3.2, which this version of Weft checks; ` +
        `block ${header.hash.toString('base64url')} (chain ${header.chainId}, height ${header.height}) breaks ` +
        `${violations.map((v) => `${v.code} (${v.message})`).join('; ')}. An older Weft wrote it without these checks: ` +
        'move the folder away and fill a new one from an upstream or a snapshot (a development devnet starts again by itself)',
      options,
    )
    this.violations = violations
  }
}

/** A snapshot file that is not a Weft snapshot, is cut short, or was altered; or of another network than asked. */
export class InvalidSnapshotError extends StoreError {
  static override readonly codes = ['INVALID_SNAPSHOT'] as const
  constructor(detail: string, options?: ErrorOptions) {
    super('INVALID_SNAPSHOT', `Expected a whole Weft snapshot file, but ${detail}`, options)
  }
}

/** A snapshot import was asked to write into a folder that already holds something, or into a file. */
export class SnapshotTargetError extends StoreError {
  static override readonly codes = ['SNAPSHOT_TARGET_EXISTS'] as const
  /** `found`: what is in the way, as the end of the message (`it holds a, b`, `it is a file`). */
  constructor(path: string, found: string, options?: ErrorOptions) {
    super('SNAPSHOT_TARGET_EXISTS', `Expected ${path} to be missing or empty for a new store, but ${found}`, options)
  }
}

/** A violation found by `validateBlock`: its stable `code` and a message. */
export interface BlockViolation {
  readonly code: string
  readonly message: string
}

/** The block broke one or more validity rules; `violations` lists them. */
export class InvalidBlockError extends StoreError {
  static override readonly codes = ['INVALID_BLOCK'] as const
  /** Hash the block claims. */
  readonly hash: Buffer
  /** Every rule the block broke, as returned by `validateBlock`. */
  readonly violations: readonly BlockViolation[]
  constructor(hash: Buffer, violations: readonly BlockViolation[], options?: ErrorOptions) {
    super(
      'INVALID_BLOCK',
      `Block ${hash.toString('base64url')} is invalid: ${violations.map((v) => `${v.code} (${v.message})`).join('; ')}`,
      options,
    )
    this.hash = hash
    this.violations = violations
  }
}

/** A range's start hash is not stored, or belongs to another chain. */
export class CursorNotFoundError extends StoreError {
  static override readonly codes = ['CURSOR_NOT_FOUND'] as const
  /** The start hash that was not found on the chain. */
  readonly hash: Buffer
  constructor(hash: Uint8Array, chain: number, options?: ErrorOptions) {
    const hashBuffer = Buffer.from(hash)
    super('CURSOR_NOT_FOUND', `Expected block ${hashBuffer.toString('base64url')} to be stored on chain ${chain}, but it is not`, options)
    this.hash = hashBuffer
  }
}

/** The store was used after `close()`. */
export class StoreClosedError extends StoreError {
  static override readonly codes = ['STORE_CLOSED'] as const
  constructor(options?: ErrorOptions) {
    super('STORE_CLOSED', 'Expected an open store, but it was closed', options)
  }
}

/** The folder holds a store of another network than the one asked for. */
export class NetworkMismatchError extends StoreError {
  static override readonly codes = ['NETWORK_MISMATCH'] as const
  /** The network asked for. */
  readonly expected: string
  /** The network whose store the folder holds. */
  readonly found: string
  constructor(expected: string, found: string, options?: ErrorOptions) {
    super('NETWORK_MISMATCH', `Expected a store of network ${expected}, but the folder holds one of ${found}`, options)
    this.expected = expected
    this.found = found
  }
}

/** Stored data broke an invariant of the layout (a record is missing or malformed). */
export class CorruptStoreError extends StoreError {
  static override readonly codes = ['CORRUPT_STORE'] as const
  constructor(detail: string, options?: ErrorOptions) {
    super('CORRUPT_STORE', `The store is corrupt: ${detail}`, options)
  }
}

/** An index read on a store that keeps no transaction index (opened with `index: false`). */
export class IndexDisabledError extends StoreError {
  static override readonly codes = ['INDEX_DISABLED'] as const
  constructor(options?: ErrorOptions) {
    super(
      'INDEX_DISABLED',
      'Expected a store that keeps the transaction index, but this one was opened without it (--no-index): open it with the index to catch it up',
      options,
    )
  }
}

/** A change-feed listener threw; reported as a process warning, never to the inserting caller. */
export class ListenerError extends StoreError {
  static override readonly codes = ['LISTENER_FAILED'] as const
  constructor(options?: ErrorOptions) {
    super('LISTENER_FAILED', 'A store listener threw; the insert went on and other listeners were called', options)
  }
}

/**
 * The disk under the store is full (ENOSPC): the write was not made, and the store takes none until
 * there is room again (it checks on a backoff); reads go on.
 */
export class StoreFullError extends StoreError {
  static override readonly codes = ['STORE_FULL'] as const
  /** The store's folder. */
  readonly path: string
  /** Bytes free for this user on the folder's file system when the write failed (`fs.statfs`), -1 when unknown. */
  readonly freeBytes: number
  constructor(path: string, freeBytes: number, options?: ErrorOptions) {
    super(
      'STORE_FULL',
      `Expected room to write in ${path}, but its disk is full (${freeBytes < 0 ? 'unknown' : freeBytes} bytes free): ` +
        'the store writes nothing until space is freed, and serves reads meanwhile',
      options,
    )
    this.path = path
    this.freeBytes = freeBytes
  }
}

/**
 * LevelDB found part of a table file damaged (`LEVEL_CORRUPTION`: a bad sector, a copy made while the
 * node ran) on a read or write: that answer cannot be given, the rest of the store goes on. Stop the
 * node and run the repair (`repairStore`), then let it fetch again what the repair lost.
 */
export class StoreDamagedError extends StoreError {
  static override readonly codes = ['STORE_DAMAGED'] as const
  /** The store's folder. */
  readonly path: string
  /** LevelDB's own words (`Corruption: corrupted compressed block contents`); it names no file. */
  readonly detail: string
  constructor(path: string, detail: string, options?: ErrorOptions) {
    super(
      'STORE_DAMAGED',
      `Expected whole table files in the store in ${path}, but LevelDB found one damaged (${detail}): ` +
        'stop the node and repair the store (weft-server --repair)',
      options,
    )
    this.path = path
    this.detail = detail
  }
}

/**
 * Why classic-level could not open or read a folder while the store opened: another process holds
 * its lock, this user may not read or write it, a file stands where the folder should be, LevelDB
 * found it corrupt, its disk is full, it lies on a read-only file system (classic-level opens none read-only: LevelDB
 * takes a lock file and writes its log), or anything else (`failed`).
 */
export type StoreOpenReason = 'locked' | 'read-only' | 'permission-denied' | 'not-a-folder' | 'corrupt' | 'disk-full' | 'failed'

/** classic-level could not open the folder, or failed while the store read it to open (`reason` says why). */
export class StoreOpenError extends StoreError {
  static override readonly codes = ['STORE_OPEN_FAILED'] as const
  /** Why, in terms an operator can act on. */
  readonly reason: StoreOpenReason
  /** classic-level's (or the system's) own words: the innermost cause's message. */
  readonly detail: string
  constructor(path: string, reason: StoreOpenReason, detail: string, options?: ErrorOptions) {
    super('STORE_OPEN_FAILED', `Expected to open a store in ${path}, but classic-level refused`, options)
    this.reason = reason
    this.detail = detail
  }
}
