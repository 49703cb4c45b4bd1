import { decodeU256, encodeU256, MAX_U256 } from '@weft/hash-text'
import type { NetworkName } from '@weft/types'
import { InvalidEncodingError } from './errors.js'
import type { Header } from './header.js'
import { getNetwork, networkOfVersionCode } from './networks.js'

const U64_MAX = 0xffffffffffffffffn

/** Size in bytes of a binary header with `adjacentCount` adjacents: 210 + 36 per adjacent. */
export function headerByteLength(adjacentCount: number): number {
  return 210 + 36 * adjacentCount
}

function checkU64(name: string, n: bigint): void {
  if (n < 0n || n > U64_MAX) throw new InvalidEncodingError(`Expected ${name} to be a u64, received ${n}`)
}

// Checked here, not left to encodeU256: a header out of range is this codec's INVALID_ENCODING.
function checkU256(name: string, n: bigint): void {
  if (n < 0n || n > MAX_U256) throw new InvalidEncodingError(`Expected ${name} to be a u256, received ${n}`)
}

function checkHash(name: string, b: Uint8Array): void {
  if (b.length !== 32) throw new InvalidEncodingError(`Expected ${name} to be 32 bytes, received ${b.length}`)
}

function checkInteger(name: string, n: number, min: number, max: number): void {
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new InvalidEncodingError(`Expected ${name} to be an integer in [${min}, ${max}], received ${n}`)
}

/** Encodes a header in the binary layout of docs/wire/hashes.md, "Block header" (little-endian, adjacents between parent and target). */
export function encodeHeader(h: Header): Buffer {
  checkU64('featureFlags', h.featureFlags)
  checkU64('nonce', h.nonce)
  checkU256('target', h.target)
  checkU256('weight', h.weight)
  checkInteger('creationTime', h.creationTime, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)
  checkInteger('epochStart', h.epochStart, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)
  checkInteger('chainId', h.chainId, 0, 0xffffffff)
  checkInteger('height', h.height, 0, Number.MAX_SAFE_INTEGER)
  checkInteger('adjacents count', h.adjacents.length, 0, 0xffff)
  checkHash('parent', h.parent)
  checkHash('payloadHash', h.payloadHash)
  checkHash('hash', h.hash)
  const out = Buffer.allocUnsafe(headerByteLength(h.adjacents.length))
  let o = out.writeBigUInt64LE(h.featureFlags, 0)
  o = out.writeBigInt64LE(BigInt(h.creationTime), o)
  out.set(h.parent, o)
  o = out.writeUInt16LE(h.adjacents.length, o + 32)
  for (const [chain, hash] of h.adjacents) {
    checkInteger('adjacent chain id', chain, 0, 0xffffffff)
    checkHash('adjacent hash', hash)
    o = out.writeUInt32LE(chain, o)
    out.set(hash, o)
    o += 32
  }
  out.set(encodeU256(h.target), o)
  out.set(h.payloadHash, o + 32)
  o = out.writeUInt32LE(h.chainId, o + 64)
  out.set(encodeU256(h.weight), o)
  o = out.writeBigUInt64LE(BigInt(h.height), o + 32)
  o = out.writeUInt32LE(getNetwork(h.version).versionCode, o)
  o = out.writeBigInt64LE(BigInt(h.epochStart), o)
  o = out.writeBigUInt64LE(h.nonce, o)
  out.set(h.hash, o)
  return out
}

function safeNumber(name: string, n: bigint): number {
  if (n > BigInt(Number.MAX_SAFE_INTEGER) || n < BigInt(Number.MIN_SAFE_INTEGER))
    throw new InvalidEncodingError(`Expected ${name} within safe integers, received ${n}`)
  return Number(n)
}

/** Decodes a binary header; throws InvalidEncodingError (INVALID_ENCODING) on a wrong length or unknown version code. */
export function decodeHeader(bytes: Uint8Array): Header {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (b.length < 210) throw new InvalidEncodingError(`Expected a binary header of at least 210 bytes, received ${b.length}`)
  const count = b.readUInt16LE(48)
  if (b.length !== headerByteLength(count))
    throw new InvalidEncodingError(
      `Expected a binary header of ${headerByteLength(count)} bytes for ${count} adjacents, received ${b.length}`,
    )
  // Copies, so that a decoded header never pins (or aliases) a larger buffer.
  const hashAt = (at: number): Buffer => Buffer.from(b.subarray(at, at + 32))
  const adjacents: Array<readonly [number, Buffer]> = []
  let o = 50
  for (let i = 0; i < count; i++, o += 36) adjacents.push([b.readUInt32LE(o), hashAt(o + 4)] as const)
  let version: NetworkName
  try {
    version = networkOfVersionCode(b.readUInt32LE(o + 108)).name
  } catch (cause) {
    throw new InvalidEncodingError(`Unknown version code ${b.readUInt32LE(o + 108)} in a binary header`, { cause })
  }
  return {
    nonce: b.readBigUInt64LE(o + 120),
    creationTime: safeNumber('creationTime', b.readBigInt64LE(8)),
    parent: hashAt(16),
    adjacents,
    target: decodeU256(b.subarray(o, o + 32)),
    payloadHash: hashAt(o + 32),
    chainId: b.readUInt32LE(o + 64),
    weight: decodeU256(b.subarray(o + 68, o + 100)),
    height: safeNumber('height', b.readBigUInt64LE(o + 100)),
    version,
    epochStart: safeNumber('epochStart', b.readBigInt64LE(o + 112)),
    featureFlags: b.readBigUInt64LE(0),
    hash: hashAt(o + 128),
  }
}
