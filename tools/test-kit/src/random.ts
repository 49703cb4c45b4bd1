/**
 * mulberry32, a small seeded generator of floats in [0, 1): the same seed gives the same sequence,
 * so a test that draws from it can be replayed from the seed it prints. (Tests that fill stores use
 * the devnet's own generator, `createRandom` of @weft/devnet, through its `fill`.)
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let x = state
    x = Math.imul(x ^ (x >>> 15), x | 1)
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61)
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32
  }
}
