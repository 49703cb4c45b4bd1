import { decodeHash, decodeU256 } from '@weft/hash-text'

/** The fields that decide which of two headers heads its chain. */
export interface RankedHeader {
  weight: string
  hash: string
}

/**
 * Orders headers the way a node picks its best head: positive when `a` wins over `b` (higher
 * weight, ties to the lower raw hash), negative when `b` wins, 0 for the same block.
 */
export function compareHeaders(a: RankedHeader, b: RankedHeader): number {
  const weightA = decodeU256(decodeHash(a.weight))
  const weightB = decodeU256(decodeHash(b.weight))
  if (weightA !== weightB) return weightA > weightB ? 1 : -1
  return Buffer.compare(decodeHash(b.hash), decodeHash(a.hash))
}
