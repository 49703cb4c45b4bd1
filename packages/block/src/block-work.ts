import { encodeHash } from '@weft/hash-text'
import type { BlockViolationCode } from './errors.js'
import { computeBlockHash, computePayloadHashes, payloadHashesMatch, powHash } from './hashing.js'
import type { Block, Header } from './header.js'

// Runs a computation on a header that may be malformed in memory; a throw counts as a violation.
function attempt<T>(compute: () => T): T | Error {
  try {
    return compute()
  } catch (e) {
    return e as Error
  }
}

/** A violation found in a block on its own, as plain data, so that it can cross threads. */
export interface WorkViolation {
  readonly code: BlockViolationCode
  readonly message: string
  /** The error a malformed value threw, when there was one (lost when the check ran on another thread). */
  readonly cause?: unknown
}

/**
 * The checks of a block that need nothing but the block itself: its hash, its payload's hashes
 * and its proof of work. They are nearly all of validation's cost, so a store may run them on
 * worker threads and hand the result to `validateBlock`.
 */
export interface BlockWork {
  readonly blockHash: WorkViolation | undefined
  /** Absent for a header checked without its payload. */
  readonly payloadHash?: WorkViolation | undefined
  readonly pow: WorkViolation | undefined
}

/** The hashing checks of `block` (see `BlockWork`): each one's violation, or undefined when it holds. */
export function checkBlockWork(block: Block): BlockWork {
  const h = block.header
  let payloadHash: WorkViolation | undefined
  const payload = attempt(() => computePayloadHashes(block.payload))
  if (payload instanceof Error)
    payloadHash = {
      code: 'INVALID_PAYLOAD_HASH',
      message: 'The payload hashes cannot be computed from a malformed payload',
      cause: payload,
    }
  else if (!payload.payloadHash.equals(h.payloadHash) || !payloadHashesMatch(block.payload, payload)) {
    payloadHash = {
      code: 'INVALID_PAYLOAD_HASH',
      message: `Expected payload hash ${encodeHash(payload.payloadHash)} in the header and the payload, received ${encodeHash(h.payloadHash)} and ${String(block.payload.payloadHash)}`,
    }
  }

  return { ...checkHeaderWork(h), payloadHash }
}

/** The hashing checks of a header alone: its block hash and its proof of work (`payloadHash` absent). */
export function checkHeaderWork(h: Header): BlockWork {
  let blockHash: WorkViolation | undefined
  const hash = attempt(() => computeBlockHash(h))
  if (hash instanceof Error)
    blockHash = { code: 'INVALID_BLOCK_HASH', message: 'The block hash cannot be computed from a malformed header', cause: hash }
  else if (!hash.equals(h.hash))
    blockHash = { code: 'INVALID_BLOCK_HASH', message: `Expected block hash ${encodeHash(hash)}, received ${encodeHash(h.hash)}` }

  let pow: WorkViolation | undefined
  const work = attempt(() => powHash(h))
  if (work instanceof Error)
    pow = { code: 'INVALID_POW', message: 'The proof-of-work hash cannot be computed from a malformed header', cause: work }
  else if (work > h.target)
    pow = {
      code: 'INVALID_POW',
      message: `Expected a proof-of-work hash <= target ${h.target.toString(16)}, received ${work.toString(16)}`,
    }
  return { blockHash, pow }
}
