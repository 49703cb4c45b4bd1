// The order in which chainweb-node writes the keys of Pact's "legacy" JSON maps (the `/poll` answer
// is one, keyed by request key): the order of unordered-containers 0.2.15 with hashable 1.3.0, which
// Pact keeps for compatibility (pact-json's `Pact.JSON.Legacy.HashMap`). A text's hash is FNV-1 with
// the 32-bit prime in 64-bit arithmetic over its UTF-16LE bytes, seeded with hashable's default salt;
// the hash array mapped trie lists keys by the hash's lowest 4 bits, then the next 4, and so on.

const MASK = (1n << 64n) - 1n
const FNV_PRIME = 16_777_619n
const DEFAULT_SALT = 0xdc36d1615b7400a4n // -2578643520546668380 as an unsigned 64-bit value
const BITS_PER_SUBKEY = 4n

/** The hash of `text` as hashable 1.3.0 computes it for text-1.x (64-bit). */
export function legacyTextHash(text: string): bigint {
  let hash = DEFAULT_SALT
  for (const byte of Buffer.from(text, 'utf16le')) hash = ((hash * FNV_PRIME) & MASK) ^ BigInt(byte)
  return hash
}

// Lowest nibble first: the trie's order. Equal hashes (a collision the trie keeps in insertion order) compare equal.
function compareTrieOrder(a: bigint, b: bigint): number {
  const subkey = (1n << BITS_PER_SUBKEY) - 1n
  for (let shift = 0n; shift < 64n; shift += BITS_PER_SUBKEY) {
    const x = (a >> shift) & subkey
    const y = (b >> shift) & subkey
    if (x !== y) return x < y ? -1 : 1
  }
  return 0
}

/** `keys` in the order chainweb-node writes them as the keys of a legacy map. */
export function inLegacyOrder(keys: readonly string[]): string[] {
  return keys
    .map((key) => ({ key, hash: legacyTextHash(key) }))
    .sort((a, b) => compareTrieOrder(a.hash, b.hash))
    .map(({ key }) => key)
}
