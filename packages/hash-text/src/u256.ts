import { InvalidU256Error } from './errors.js'

/** 2^256 - 1, the largest u256. */
export const MAX_U256 = (1n << 256n) - 1n

/** Encodes a u256 as 32 bytes little-endian (the bytes whose hash text the wire writes for weights and targets). */
export function encodeU256(n: bigint): Buffer {
  if (n < 0n || n > MAX_U256) throw new InvalidU256Error(`Expected a u256 (0 <= n < 2^256), received ${n}`)
  const out = Buffer.allocUnsafe(32)
  for (let i = 0; i < 4; i++) {
    out.writeBigUInt64LE(n & 0xffffffffffffffffn, i * 8)
    n >>= 64n
  }
  return out
}

/** Decodes 32 bytes little-endian as a u256. */
export function decodeU256(bytes: Uint8Array): bigint {
  if (bytes.length !== 32) throw new InvalidU256Error(`Expected 32 bytes of u256, received ${bytes.length}`)
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, 32)
  return (b.readBigUInt64LE(24) << 192n) | (b.readBigUInt64LE(16) << 128n) | (b.readBigUInt64LE(8) << 64n) | b.readBigUInt64LE(0)
}
