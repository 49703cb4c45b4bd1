import { encodeHash, encodeU256, MAX_U256 } from '@weft/hash-text'
import type { PayloadWithOutputs } from '@weft/types'
import type { Header } from './header.js'
import { encodeHeader } from './header-binary.js'
import { digest, innerHash, leafHash, merkleRootOfHashes, tagged } from './merkle.js'
import { getNetwork } from './networks.js'

function u64(n: bigint): Buffer {
  const b = Buffer.allocUnsafe(8)
  b.writeBigUInt64LE(n)
  return b
}

function u32(n: number): Buffer {
  const b = Buffer.allocUnsafe(4)
  b.writeUInt32LE(n)
  return b
}

/** The block hash: root of the Merkle tree over the header's fields (docs/wire/hashes.md, "Block hash"); `h.hash` is ignored. */
export function computeBlockHash(h: Header): Buffer {
  // Adjacents come last here, unlike in the binary layout.
  const leaves: Uint8Array[] = [
    leafHash(tagged(0x0006, u64(h.featureFlags))),
    leafHash(tagged(0x0007, u64(BigInt.asUintN(64, BigInt(h.creationTime))))),
    h.parent,
    leafHash(tagged(0x0011, encodeU256(h.target))),
    h.payloadHash,
    leafHash(tagged(0x0002, u32(h.chainId))),
    leafHash(tagged(0x0004, encodeU256(h.weight))),
    leafHash(tagged(0x0003, u64(BigInt(h.height)))),
    leafHash(tagged(0x0008, u32(getNetwork(h.version).versionCode))),
    leafHash(tagged(0x0019, u64(BigInt.asUintN(64, BigInt(h.epochStart))))),
    leafHash(tagged(0x0020, u64(h.nonce))),
  ]
  for (const [, hash] of h.adjacents) leaves.push(hash)
  return merkleRootOfHashes(leaves)
}

/** The parent hash of a genesis block: Merkle root of `CHAINWEB_GENESIS`, u32 version code, u32 chain id (untagged). */
export function genesisParentHash(versionCode: number, chainId: number): Buffer {
  return merkleRootOfHashes([leafHash(Buffer.from('CHAINWEB_GENESIS', 'ascii')), leafHash(u32(versionCode)), leafHash(u32(chainId))])
}

/** The three payload hashes computed from a payload's contents (its own hash fields are ignored). */
export function computePayloadHashes(p: Pick<PayloadWithOutputs, 'transactions' | 'minerData' | 'coinbase'>): {
  transactionsHash: Buffer
  outputsHash: Buffer
  payloadHash: Buffer
} {
  const transactionLeaves = [leafHash(tagged(0x0017, Buffer.from(p.minerData, 'base64url')))]
  const outputLeaves = [leafHash(tagged(0x0018, Buffer.from(p.coinbase, 'base64url')))]
  for (const [transaction, output] of p.transactions) {
    transactionLeaves.push(leafHash(tagged(0x0013, Buffer.from(transaction, 'base64url'))))
    outputLeaves.push(leafHash(tagged(0x0014, Buffer.from(output, 'base64url'))))
  }
  const transactionsHash = merkleRootOfHashes(transactionLeaves)
  const outputsHash = merkleRootOfHashes(outputLeaves)
  return { transactionsHash, outputsHash, payloadHash: innerHash(transactionsHash, outputsHash) }
}

/** Whether the payload's own hash fields are well-formed and equal the hashes of its contents (computed unless given). */
export function payloadHashesMatch(p: PayloadWithOutputs, computed = computePayloadHashes(p)): boolean {
  // A hash has exactly two well-formed texts (see decodeHash): its unpadded base64url, and that
  // with one '='. Comparing texts is cheaper than checking and decoding the field.
  return (['transactionsHash', 'outputsHash', 'payloadHash'] as const).every((key) => {
    const expected = encodeHash(computed[key])
    return p[key] === expected || p[key] === `${expected}=`
  })
}

/** The number of transactions in a payload. */
export function txCount(p: PayloadWithOutputs): number {
  return p.transactions.length
}

/** Blake2s-256 of the binary header without its final 32 hash bytes: the bytes that proof of work covers. */
export function powHashBytes(h: Header): Buffer {
  const bytes = encodeHeader(h)
  return digest('blake2s256', bytes.subarray(0, bytes.length - 32))
}

/** The proof-of-work hash as a little-endian u256; a block is valid when it is <= target. */
export function powHash(h: Header): bigint {
  const d = powHashBytes(h)
  return (d.readBigUInt64LE(24) << 192n) | (d.readBigUInt64LE(16) << 128n) | (d.readBigUInt64LE(8) << 64n) | d.readBigUInt64LE(0)
}

/** A u256 as 64 lowercase hex digits, big-endian. */
export function u256Hex(n: bigint): string {
  return n.toString(16).padStart(64, '0')
}

/** powHash as 64 lowercase hex digits, big-endian (as header update events carry it). */
export function powHashHex(h: Header): string {
  return u256Hex(powHash(h))
}

/** A target as 64 lowercase hex digits, big-endian. */
export function targetHex(target: bigint): string {
  return u256Hex(target)
}

/** floor((2^256 - 1) / target); a target of 0 (unreachable) counts as the largest difficulty, 2^256 - 1. */
export function difficulty(target: bigint): bigint {
  return target <= 0n ? MAX_U256 : MAX_U256 / target
}
