import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { BlockHash, ChainId, NetworkName, U256Text } from './primitives.js'

// Both profiles share every field but the name of the version key, and the key order is canonical.
function headerSchema<K extends 'chainVersion' | 'chainwebVersion'>(versionKey: K) {
  const head = {
    nonce: Type.String({ pattern: '^[0-9]{1,20}$', description: 'u64 as a decimal string' }),
    creationTime: Type.Integer({ description: 'microseconds since the POSIX epoch' }),
    parent: BlockHash,
    adjacents: Type.Record(Type.String({ pattern: '^[0-9]+$' }), BlockHash, {
      description: 'chain id -> hash of the adjacent parent',
      additionalProperties: false,
    }),
    target: U256Text,
    payloadHash: BlockHash,
    chainId: ChainId,
    weight: U256Text,
    height: Type.Integer({ minimum: 0 }),
  }
  const version = { [versionKey]: NetworkName } as { [P in K]: typeof NetworkName }
  const tail = {
    epochStart: Type.Integer({ description: 'microseconds since the POSIX epoch' }),
    featureFlags: Type.Integer({ minimum: 0, description: 'u64' }),
    hash: BlockHash,
  }
  return Type.Object({ ...head, ...version, ...tail }, { additionalProperties: false })
}

/** A block header object in the `spec` profile (version key `chainVersion`). */
export const BlockHeader = headerSchema('chainVersion')
/** A block header object in the `spec` profile (version key `chainVersion`). */
export type BlockHeader = Static<typeof BlockHeader>

/** A block header object in the `chainweb` profile (version key `chainwebVersion`). */
export const ChainwebBlockHeader = headerSchema('chainwebVersion')
/** A block header object in the `chainweb` profile (version key `chainwebVersion`). */
export type ChainwebBlockHeader = Static<typeof ChainwebBlockHeader>

// A header update event's data: the header, its PoW hash and target as 64 hex digits, its transaction count.
function headerUpdateSchema<T extends TSchema>(header: T) {
  return Type.Object({
    header,
    powHash: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    target: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    txCount: Type.Integer({ minimum: 0 }),
  })
}

/** Data of a `BlockHeader` server-sent event, `spec` profile. */
export const HeaderUpdate = headerUpdateSchema(BlockHeader)
/** Data of a `BlockHeader` server-sent event, `spec` profile. */
export type HeaderUpdate = Static<typeof HeaderUpdate>

/** Data of a `BlockHeader` server-sent event, `chainweb` profile. */
export const ChainwebHeaderUpdate = headerUpdateSchema(ChainwebBlockHeader)
/** Data of a `BlockHeader` server-sent event, `chainweb` profile. */
export type ChainwebHeaderUpdate = Static<typeof ChainwebHeaderUpdate>
