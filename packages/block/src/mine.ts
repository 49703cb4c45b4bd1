import { encodeHash, encodeU256 } from '@weft/hash-text'
import type { PayloadWithOutputs } from '@weft/types'
import { expectedEpochStart, expectedTarget } from './difficulty-adjustment.js'
import { childForkState, forkNumberOf } from './fork-state.js'
import { computeBlockHash, computePayloadHashes, difficulty } from './hashing.js'
import type { Header } from './header.js'
import { encodeHeader } from './header-binary.js'
import { digest } from './merkle.js'
import { getNetwork } from './networks.js'

// The binary header ends with epochStart, nonce, hash: the nonce is 40 bytes from the end.
const NONCE_FROM_END = 40
const HASH_BYTES = 32

/** A payload's contents: its hash fields, if present, are ignored. */
export type PayloadContents = Omit<PayloadWithOutputs, 'transactionsHash' | 'outputsHash' | 'payloadHash'>

/** A new payload with `payload`'s contents and its three hash fields computed from them (keys in the contract's order). */
export function withPayloadHashes(payload: PayloadContents): PayloadWithOutputs {
  const hashes = computePayloadHashes(payload)
  return {
    transactions: payload.transactions,
    minerData: payload.minerData,
    transactionsHash: encodeHash(hashes.transactionsHash),
    outputsHash: encodeHash(hashes.outputsHash),
    payloadHash: encodeHash(hashes.payloadHash),
    coinbase: payload.coinbase,
  }
}

/** A copy of `header` with the first nonce, counting up from its own, whose proof-of-work hash is at most its target, and its block hash. */
export function mineHeader(header: Header): Header {
  const mined = { ...header, nonce: findNonce(encodeHeader(header), header.target) }
  mined.hash = computeBlockHash(mined)
  return mined
}

/** What a child header takes beyond its parent. */
export interface ChildHeaderFields {
  /** Microseconds. */
  readonly creationTime: number
  /** The blocks its adjacents name (the neighbours' blocks at the parent's height): the rules read them. */
  readonly adjacentParents?: readonly Header[]
  /** The neighbours' hashes, by ascending chain id; default those of `adjacentParents`. */
  readonly adjacents?: ReadonlyArray<readonly [chainId: number, hash: Buffer]>
  readonly payloadHash: Buffer
  /** Default: the target the rules give (`expectedTarget`), from the parent and `adjacentParents`. */
  readonly target?: bigint
  /** Default: the epoch start the rules give (`expectedEpochStart`). */
  readonly epochStart?: number
  /** The first nonce tried (u64); default 0. */
  readonly nonce?: bigint
  /**
   * u64: the fork number in the low 32 bits, fork votes in the high 32 bits. Default: as release 3.2
   * writes them (`childForkState`), voting yes while the fork number is below the network's.
   */
  readonly featureFlags?: bigint
}

/** The child of `parent` mined with `mineHeader` (see `childHeader`). */
export function mineChildHeader(parent: Header, fields: ChildHeaderFields): Header {
  return mineHeader(childHeader(parent, fields))
}

/**
 * The child of `parent`, not mined (its nonce as given, its hash zero): its weight plus the target's
 * difficulty, its version, and, unless given, the target, epoch start and feature flags the
 * network's rules give it.
 */
export function childHeader(parent: Header, fields: ChildHeaderFields): Header {
  const adjacentParents = fields.adjacentParents ?? []
  const { rules } = getNetwork(parent.version)
  const target = fields.target ?? expectedTarget(parent, adjacentParents, fields.creationTime) ?? parent.target
  const vote = forkNumberOf(parent.featureFlags) < rules.forkNumber
  return {
    nonce: fields.nonce ?? 0n,
    creationTime: fields.creationTime,
    parent: parent.hash,
    adjacents: fields.adjacents ?? [...adjacentParents].sort((a, b) => a.chainId - b.chainId).map((a) => [a.chainId, a.hash] as const),
    target,
    payloadHash: fields.payloadHash,
    chainId: parent.chainId,
    weight: parent.weight + difficulty(target),
    height: parent.height + 1,
    version: parent.version,
    epochStart: fields.epochStart ?? expectedEpochStart(parent, fields.creationTime),
    featureFlags: fields.featureFlags ?? childForkState(parent, adjacentParents, vote),
    hash: Buffer.alloc(HASH_BYTES),
  }
}

/**
 * Counts the nonce of the binary header `binary` up, wrapping at 2^64, until Blake2s-256 of the header
 * without its hash, read as a little-endian number, is at most `target`, and returns that nonce; `binary`
 * is left holding it. Patching 8 bytes in place avoids encoding the header again for every attempt.
 * Never returns when no nonce meets the target.
 */
export function findNonce(binary: Buffer, target: bigint): bigint {
  const nonceAt = binary.length - NONCE_FROM_END
  const work = binary.subarray(0, binary.length - HASH_BYTES)
  const targetBytes = encodeU256(target)
  for (;;) {
    const pow = digest('blake2s256', work)
    if (atMost(pow, targetBytes)) return binary.readBigUInt64LE(nonceAt)
    // Increment the little-endian u64, wrapping around at 2^64.
    for (let i = nonceAt; i < nonceAt + 8; i++) {
      const byte = (binary[i]! + 1) & 0xff
      binary[i] = byte
      if (byte !== 0) break
    }
  }
}

/** Whether little-endian `a` <= little-endian `b` (both 32 bytes). */
function atMost(a: Buffer, b: Buffer): boolean {
  let i = a.length - 1
  while (i > 0 && a[i] === b[i]) i--
  return a[i]! <= b[i]!
}
