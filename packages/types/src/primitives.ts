import { type Static, Type } from '@sinclair/typebox'

/** The profile names, in the order of the `Profile` schema: the one list every other is derived from. */
export const profileNames = ['spec', 'chainweb'] as const

/** Which names the server speaks on the wire: the brand-neutral `spec` names or the real network's `chainweb` ones. */
export const Profile = Type.Union(
  profileNames.map((name) => Type.Literal(name)),
  { description: profileNames.join(' | ') },
)
/** Which names the server speaks on the wire: the brand-neutral `spec` names or the real network's `chainweb` ones. */
export type Profile = Static<typeof Profile>

/** The networks a node can serve, in the order of the `NetworkName` schema: the one list every other is derived from. */
export const networkNames = ['mainnet01', 'testnet06', 'testnet04', 'recap-development', 'development', 'test-singleton'] as const

/** The networks a node can serve. */
export const NetworkName = Type.Union(
  networkNames.map((name) => Type.Literal(name)),
  { description: networkNames.join(' | ') },
)
/** The networks a node can serve. */
export type NetworkName = Static<typeof NetworkName>

// 43 characters carry 258 bits: the last one holds only 4 bits of the 32 bytes, its low 2 bits are 0.
// The same rule as @weft/hash-text's decoder, so that a text these schemas accept always decodes.
const hash32 = '[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]'

/** A 32-byte hash as unpadded base64url: 43 characters. */
export const BlockHash = Type.String({ pattern: `^${hash32}$`, description: 'unpadded base64url of 32 bytes' })
/** A 32-byte hash as unpadded base64url: 43 characters. */
export type BlockHash = Static<typeof BlockHash>

/** A chain id as a JSON integer. */
export const ChainId = Type.Integer({ minimum: 0, maximum: 4294967295 })
/** A chain id as a JSON integer. */
export type ChainId = Static<typeof ChainId>

/** A little-endian u256 (target, weight) as unpadded base64url of its 32 bytes. */
export const U256Text = Type.String({ pattern: `^${hash32}$`, description: 'unpadded base64url of a 32-byte little-endian u256' })
/** A little-endian u256 (target, weight) as unpadded base64url of its 32 bytes. */
export type U256Text = Static<typeof U256Text>

/** A hash as received in a request body: 43 base64url characters, one trailing `=` tolerated. */
export const HashInput = Type.String({
  pattern: `^${hash32}=?$`,
  description: 'a hash: 43 base64url characters (32 bytes), one trailing = tolerated',
})
/** A hash as received in a request body: 43 base64url characters, one trailing `=` tolerated. */
export type HashInput = Static<typeof HashInput>

/** A paging cursor: `inclusive:<hash>` or `exclusive:<hash>`. */
export const CursorText = Type.String({
  pattern: `^(inclusive|exclusive):${hash32}=?$`,
  description: 'inclusive:<hash> or exclusive:<hash>',
})
/** A paging cursor: `inclusive:<hash>` or `exclusive:<hash>`. */
export type CursorText = Static<typeof CursorText>

/** A non-negative integer as it arrives in a query string: decimal digits, any number of them. */
export const DigitsText = Type.String({ pattern: '^[0-9]+$', description: 'a non-negative integer' })
/** A non-negative integer as it arrives in a query string: decimal digits, any number of them. */
export type DigitsText = Static<typeof DigitsText>
