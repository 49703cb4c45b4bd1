/** What fork choice reads of a header: its accumulated weight and its hash. */
export interface HeadCandidate {
  /** u256: accumulated difficulty. */
  readonly weight: bigint
  readonly hash: Uint8Array
}

/**
 * Orders candidate heads of one chain best first: negative when `a` is the better head, positive
 * when `b` is, 0 for the same block. Higher weight wins; equal weights go to the lower raw hash
 * (bytes compared unsigned, as `Buffer.compare` does), so every node picks the same head.
 */
export function compareHeads(a: HeadCandidate, b: HeadCandidate): number {
  if (a.weight !== b.weight) return a.weight > b.weight ? -1 : 1
  return Buffer.compare(a.hash, b.hash)
}

/** Whether `a` beats `b` as a chain's best head: higher weight, ties to the lower raw hash. */
export function isBetterHead(a: HeadCandidate, b: HeadCandidate): boolean {
  return compareHeads(a, b) < 0
}
