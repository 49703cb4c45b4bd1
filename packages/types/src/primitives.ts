import { type Static, Type } from '@sinclair/typebox'

/** Which names the server speaks on the wire: the brand-neutral `spec` names or the real network's `chainweb` ones. */
export const Profile = Type.Union([Type.Literal('spec'), Type.Literal('chainweb')])
/** Which names the server speaks on the wire: the brand-neutral `spec` names or the real network's `chainweb` ones. */
export type Profile = Static<typeof Profile>

/** The networks a node can serve. */
export const NetworkName = Type.Union([
  Type.Literal('mainnet01'),
  Type.Literal('testnet06'),
  Type.Literal('testnet04'),
  Type.Literal('recap-development'),
  Type.Literal('development'),
  Type.Literal('test-singleton'),
])
/** The networks a node can serve. */
export type NetworkName = Static<typeof NetworkName>

/** A 32-byte hash as unpadded base64url: 43 characters. */
export const BlockHash = Type.String({ pattern: '^[A-Za-z0-9_-]{43}$', description: 'unpadded base64url of 32 bytes' })
/** A 32-byte hash as unpadded base64url: 43 characters. */
export type BlockHash = Static<typeof BlockHash>

/** A chain id as a JSON integer. */
export const ChainId = Type.Integer({ minimum: 0, maximum: 4294967295 })
/** A chain id as a JSON integer. */
export type ChainId = Static<typeof ChainId>

/** A little-endian u256 (target, weight) as unpadded base64url of its 32 bytes. */
export const U256Text = Type.String({ pattern: '^[A-Za-z0-9_-]{43}$', description: 'unpadded base64url of a 32-byte little-endian u256' })
/** A little-endian u256 (target, weight) as unpadded base64url of its 32 bytes. */
export type U256Text = Static<typeof U256Text>

/** A hash as received in a request body: 43 base64url characters, one trailing `=` tolerated. */
export const HashInput = Type.String({ pattern: '^[A-Za-z0-9_-]{43}=?$' })
/** A hash as received in a request body: 43 base64url characters, one trailing `=` tolerated. */
export type HashInput = Static<typeof HashInput>

/** A paging cursor: `inclusive:<hash>` or `exclusive:<hash>`. */
export const CursorText = Type.String({ pattern: '^(inclusive|exclusive):[A-Za-z0-9_-]{43}=?$' })
/** A paging cursor: `inclusive:<hash>` or `exclusive:<hash>`. */
export type CursorText = Static<typeof CursorText>
