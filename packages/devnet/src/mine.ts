import { createHash } from 'node:crypto'
import { computeBlockHash, decodeHash, difficulty, encodeHeader, encodeU256, type Block, type Header } from '@weft/block'
import type { PayloadWithOutputs } from '@weft/types'

/** What a new block is made of; everything else follows from its parent. */
export interface MineBlockInput {
  readonly parent: Header
  /** The neighbours' blocks at the parent's height, by ascending chain id. */
  readonly adjacents: ReadonlyArray<readonly [chainId: number, hash: Buffer]>
  readonly payload: PayloadWithOutputs
  /** Microseconds; must be after the parent's. */
  readonly creationTime: number
  /** The first nonce tried (u64); later ones count up from it. */
  readonly nonce?: bigint
}

// The binary header ends with epochStart, nonce, hash: the nonce is 40 bytes from the end.
const NONCE_FROM_END = 40
const HASH_BYTES = 32
const U64 = 1n << 64n

/**
 * Mines the child of `parent`: the parent's target, weight + difficulty, same epoch start, feature
 * flags 0, and the first nonce from `nonce` on whose proof-of-work hash is at most the target.
 */
export function mineBlock(input: MineBlockInput): Block {
  const { parent } = input
  const header: Header = {
    nonce: (input.nonce ?? 0n) % U64,
    creationTime: input.creationTime,
    parent: parent.hash,
    adjacents: input.adjacents,
    target: parent.target,
    payloadHash: decodeHash(input.payload.payloadHash),
    chainId: parent.chainId,
    weight: parent.weight + difficulty(parent.target),
    height: parent.height + 1,
    version: parent.version,
    epochStart: parent.epochStart,
    featureFlags: 0n,
    hash: Buffer.alloc(HASH_BYTES),
  }
  header.nonce = findNonce(encodeHeader(header), parent.target)
  header.hash = computeBlockHash(header)
  return { header, payload: input.payload }
}

/**
 * Counts the nonce up inside the encoded header until Blake2s-256 of the header without its hash,
 * read as a little-endian number, is at most `target`. Patching 8 bytes in place avoids encoding
 * the header again for every attempt.
 */
function findNonce(binary: Buffer, target: bigint): bigint {
  const nonceAt = binary.length - NONCE_FROM_END
  const work = binary.subarray(0, binary.length - HASH_BYTES)
  const targetBytes = encodeU256(target)
  for (;;) {
    const pow = createHash('blake2s256').update(work).digest()
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
