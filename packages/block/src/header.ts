import type { NetworkName, PayloadWithOutputs } from '@weft/types'

/** A block header in memory: hashes as 32-byte Buffers, u64/u256 fields as bigints. */
export interface Header {
  /** u64 */
  nonce: bigint
  /** microseconds since the POSIX epoch (i64, within safe integers) */
  creationTime: number
  parent: Buffer
  /** sorted by chain id */
  adjacents: ReadonlyArray<readonly [chainId: number, hash: Buffer]>
  /** u256 */
  target: bigint
  payloadHash: Buffer
  chainId: number
  /** u256: accumulated difficulty */
  weight: bigint
  height: number
  version: NetworkName
  /** microseconds */
  epochStart: number
  /** u64 */
  featureFlags: bigint
  hash: Buffer
}

/** A block: its header and its payload with outputs, the payload kept as its JSON object. */
export interface Block {
  header: Header
  payload: PayloadWithOutputs
}
