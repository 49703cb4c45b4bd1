import { createHash } from 'node:crypto'

/** A deterministic source of randomness: the same seed always gives the same sequence. */
export interface Random {
  /** A float in [0, 1). */
  next(): number
  /** An integer in [0, n). */
  int(n: number): number
  /** An integer in [min, max] (both included). */
  between(min: number, max: number): number
  /** `count` random bytes. */
  bytes(count: number): Buffer
  /** `count` lowercase hex characters. */
  hex(count: number): string
  /** An element of a non-empty array. */
  pick<T>(items: readonly T[]): T
  /** Whether an event of probability `p` happens. */
  chance(p: number): boolean
}

/**
 * sfc32 (Chris Doty-Humphrey's Small Fast Counter) seeded from the SHA-256 of the seed's text:
 * tiny, fast, good enough statistically, and it needs no dependency.
 */
export function createRandom(seed: string | number): Random {
  const digest = createHash('sha256')
    .update(`weft-devnet:${String(seed)}`)
    .digest()
  let a = digest.readUInt32LE(0)
  let b = digest.readUInt32LE(4)
  let c = digest.readUInt32LE(8)
  let d = digest.readUInt32LE(12)
  const nextU32 = (): number => {
    const t = (((a + b) | 0) + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    return t >>> 0
  }
  // The first outputs of sfc32 still echo the seed words: discard them, as its author advises.
  for (let i = 0; i < 12; i++) nextU32()
  const next = (): number => nextU32() / 4294967296
  const int = (n: number): number => Math.floor(next() * n)
  const bytes = (count: number): Buffer => {
    const out = Buffer.allocUnsafe(count)
    for (let i = 0; i < count; i += 4) {
      const word = nextU32()
      for (let k = 0; k < 4 && i + k < count; k++) out[i + k] = (word >>> (8 * k)) & 0xff
    }
    return out
  }
  return {
    next,
    int,
    between: (min, max) => min + int(max - min + 1),
    bytes,
    hex: (count) =>
      bytes(Math.ceil(count / 2))
        .toString('hex')
        .slice(0, count),
    pick: <T>(items: readonly T[]): T => items[int(items.length)] as T,
    chance: (p) => p > 0 && next() < p,
  }
}
