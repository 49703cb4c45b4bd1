import * as crypto from 'node:crypto'

// crypto.hash (Node 20.12 and later) hashes in one call: for the short inputs of a Merkle tree about
// a quarter cheaper than createHash().update().digest(), which it replaces where it exists.
const oneShot = (crypto as { hash?: typeof crypto.hash }).hash

/** The `algorithm` hash of `bytes`, as a Buffer. */
export function digest(algorithm: 'sha512-256' | 'blake2s256', bytes: Uint8Array): Buffer {
  /* c8 ignore start */
  // Node 20.0 to 20.11 have no crypto.hash; the tests run on a later Node and never take this line.
  if (oneShot === undefined) return crypto.createHash(algorithm).update(bytes).digest()
  /* c8 ignore stop */
  return oneShot(algorithm, bytes, 'buffer')
}

const LEAF = Buffer.from([0])
const NODE = Buffer.from([1])

/** SHA-512/256 of the concatenated parts. */
export function sha512_256(...parts: Uint8Array[]): Buffer {
  return digest('sha512-256', Buffer.concat(parts))
}

/** H(0x00 || bytes): the hash of an input leaf. */
export function leafHash(bytes: Uint8Array): Buffer {
  return sha512_256(LEAF, bytes)
}

/** Input bytes of a tagged leaf: 2-byte big-endian tag, then the field's binary encoding. */
export function tagged(tag: number, bytes: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(2 + bytes.length)
  out.writeUInt16BE(tag, 0)
  out.set(bytes, 2)
  return out
}

/** Root of the RFC 6962-shaped tree over leaf hashes (input leaves already hashed with leafHash, tree nodes as they are); the empty tree is H(""). */
export function merkleRootOfHashes(hashes: readonly Uint8Array[]): Buffer {
  if (hashes.length === 0) return sha512_256()
  return root(hashes, 0, hashes.length)
}

function root(hashes: readonly Uint8Array[], start: number, end: number): Buffer {
  const n = end - start
  if (n === 1) return Buffer.from(hashes[start] as Uint8Array)
  // Split at the largest power of two strictly below n, left part first.
  let k = 1
  while (k * 2 < n) k *= 2
  return sha512_256(NODE, root(hashes, start, start + k), root(hashes, start + k, end))
}

/** H(0x01 || left || right): one inner node. */
export function innerHash(left: Uint8Array, right: Uint8Array): Buffer {
  return sha512_256(NODE, left, right)
}
