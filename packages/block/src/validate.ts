import { encodeHash } from '@weft/hash-text'
import { BlockValidationError, type BlockViolationCode } from './errors.js'
import { sharedGenesisBlock } from './genesis.js'
import { computeBlockHash, computePayloadHashes, difficulty, payloadHashesMatch, powHash } from './hashing.js'
import type { Block, Header } from './header.js'
import { blockAdjacentChains, type Network } from './networks.js'

// Field-by-field equality of two headers, including the hash.
function sameHeader(a: Header, b: Header): boolean {
  return (
    a.nonce === b.nonce &&
    a.creationTime === b.creationTime &&
    a.parent.equals(b.parent) &&
    a.adjacents.length === b.adjacents.length &&
    a.adjacents.every(([chain, hash], i) => {
      const other = b.adjacents[i] as readonly [number, Buffer]
      return chain === other[0] && hash.equals(other[1])
    }) &&
    a.target === b.target &&
    a.payloadHash.equals(b.payloadHash) &&
    a.chainId === b.chainId &&
    a.weight === b.weight &&
    a.height === b.height &&
    a.version === b.version &&
    a.epochStart === b.epochStart &&
    a.featureFlags === b.featureFlags &&
    a.hash.equals(b.hash)
  )
}

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
  readonly payloadHash: WorkViolation | undefined
  readonly pow: WorkViolation | undefined
}

/** The hashing checks of `block` (see `BlockWork`): each one's violation, or undefined when it holds. */
export function checkBlockWork(block: Block): BlockWork {
  const h = block.header
  let blockHash: WorkViolation | undefined
  const hash = attempt(() => computeBlockHash(h))
  if (hash instanceof Error)
    blockHash = { code: 'INVALID_BLOCK_HASH', message: 'The block hash cannot be computed from a malformed header', cause: hash }
  else if (!hash.equals(h.hash))
    blockHash = { code: 'INVALID_BLOCK_HASH', message: `Expected block hash ${encodeHash(hash)}, received ${encodeHash(h.hash)}` }

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

  let pow: WorkViolation | undefined
  const work = attempt(() => powHash(h))
  if (work instanceof Error)
    pow = { code: 'INVALID_POW', message: 'The proof-of-work hash cannot be computed from a malformed header', cause: work }
  else if (work > h.target)
    pow = {
      code: 'INVALID_POW',
      message: `Expected a proof-of-work hash <= target ${h.target.toString(16)}, received ${work.toString(16)}`,
    }
  return { blockHash, payloadHash, pow }
}

/**
 * Every way in which `block` is invalid as a child of `parent` on `network`; [] when it is valid.
 * With `parent` undefined the block must be the network's genesis block of its chain (proof of
 * work is not checked then). Adjacent blocks are checked by chain id against the graph in force
 * at the parent's height (see `blockAdjacentChains`); their hashes cannot be checked without the
 * other chains. `work`, the block's hashing checks, is computed here unless given (see `BlockWork`).
 */
export function validateBlock(
  block: Block,
  parent: Header | undefined,
  network: Network,
  work: BlockWork = checkBlockWork(block),
): BlockValidationError[] {
  return validateHeader(block.header, parent, network, work)
}

/**
 * `validateBlock` for a block whose hashing checks were done elsewhere (`work`, computed by
 * `checkBlockWork` where the payload is, a worker thread say): the header is all it needs.
 */
export function validateHeader(h: Header, parent: Header | undefined, network: Network, work: BlockWork): BlockValidationError[] {
  const violations: BlockValidationError[] = []
  const violation = (code: BlockViolationCode, message: string, cause?: unknown): void => {
    violations.push(new BlockValidationError(code, message, cause === undefined ? undefined : { cause }))
  }
  const found = (found: WorkViolation | undefined): void => {
    if (found !== undefined) violation(found.code, found.message, found.cause)
  }

  found(work.blockHash)
  found(work.payloadHash)

  if (h.version !== network.name) violation('INVALID_VERSION', `Expected a block of ${network.name}, received ${String(h.version)}`)

  if (parent === undefined) {
    const genesis = sharedGenesisBlock(network, h.chainId)
    if (genesis === undefined) violation('INVALID_CHAIN', `Network ${network.name} has no chain ${h.chainId}`)
    else if (!sameHeader(h, genesis.header))
      violation(
        'INVALID_GENESIS',
        `A block without parent must be the genesis block ${encodeHash(genesis.header.hash)} of chain ${h.chainId}`,
      )
    return violations
  }

  if (!h.parent.equals(parent.hash))
    violation('INVALID_PARENT', `Expected parent ${encodeHash(parent.hash)}, received ${encodeHash(h.parent)}`)
  if (h.height !== parent.height + 1) violation('INVALID_HEIGHT', `Expected height ${parent.height + 1}, received ${h.height}`)
  if (h.version !== parent.version && h.version === network.name)
    violation('INVALID_VERSION', `Expected the parent's network ${parent.version}, received ${h.version}`)

  const expectedAdjacents = blockAdjacentChains(network, h.chainId, h.height)
  if (h.chainId !== parent.chainId || expectedAdjacents === undefined) {
    violation('INVALID_CHAIN', `Expected chain ${parent.chainId} as the parent's, existing at height ${h.height}, received ${h.chainId}`)
  } else {
    const chains = h.adjacents.map(([chain]) => chain)
    if (chains.length !== expectedAdjacents.length || chains.some((c, i) => c !== expectedAdjacents[i])) {
      violation('INVALID_ADJACENTS', `Expected adjacents on chains [${expectedAdjacents.join(',')}], received [${chains.join(',')}]`)
    }
  }

  if (h.creationTime <= parent.creationTime)
    violation('INVALID_CREATION_TIME', `Expected a creation time after the parent's ${parent.creationTime}, received ${h.creationTime}`)

  const weight = parent.weight + difficulty(h.target)
  if (h.weight !== weight) violation('INVALID_WEIGHT', `Expected weight ${weight} (parent's plus difficulty), received ${h.weight}`)

  found(work.pow)
  return violations
}
