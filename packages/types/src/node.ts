import { type Static, Type } from '@sinclair/typebox'
import { BlockHash, CursorText, DigitsText, HashInput, NetworkName, U256Text } from './primitives.js'

// One graph: [[chain, [adjacent chains]], ...].
const Graph = Type.Array(Type.Tuple([Type.Integer({ minimum: 0 }), Type.Array(Type.Integer({ minimum: 0 }))]))
// The graph history, newest first: [[height, graph], ...].
const GraphHistory = Type.Array(Type.Tuple([Type.Integer({ minimum: 0 }), Graph]))

/** The body of `GET /info`. */
export const NodeInfo = Type.Object({
  nodeApiVersion: Type.String(),
  nodeBlockDelay: Type.Number({ minimum: 0, description: 'seconds (spec) or microseconds (chainweb)' }),
  nodeChains: Type.Array(Type.String({ pattern: '^[0-9]+$' })),
  nodeGenesisHeights: Type.Array(Type.Tuple([Type.String({ pattern: '^[0-9]+$' }), Type.Integer({ minimum: 0 })])),
  nodeGraphHistory: GraphHistory,
  nodeHistoricalChains: GraphHistory,
  nodeLatestBehaviorHeight: Type.Integer({ minimum: 0 }),
  nodeNumberOfChains: Type.Integer({ minimum: 0 }),
  nodePackageVersion: Type.String(),
  // Absent when the chainweb profile answers as release 3.2, which dropped it.
  nodeServiceDate: Type.Optional(
    Type.Union([
      Type.String({
        pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$',
        description: 'ISO 8601 UTC date-time',
      }),
      Type.Null(),
    ]),
  ),
  nodeVersion: NetworkName,
})
/** The body of `GET /info`. */
export type NodeInfo = Static<typeof NodeInfo>

// `null` means empty; duplicates are ignored by the server.
const Bounds = Type.Union([Type.Array(HashInput), Type.Null()], { description: 'an array of block hashes, or null' })

/** The body of a branch query: blocks above some upper bound and not above any lower bound. */
export const BranchBounds = Type.Object(
  { lower: Type.Optional(Bounds), upper: Type.Optional(Bounds) },
  { description: 'a JSON object {"lower": [hash...], "upper": [hash...]}' },
)
/** The body of a branch query: blocks above some upper bound and not above any lower bound. */
export type BranchBounds = Static<typeof BranchBounds>

/**
 * Paging query parameters as received (strings), of GET block, header and hash and of their branch POSTs.
 * Properties are listed in the order a server reports the first malformed one: `limit`, `minheight`,
 * `maxheight`, `next`. Other parameters are ignored.
 */
export const BlockQuery = Type.Object({
  limit: Type.Optional(DigitsText),
  minheight: Type.Optional(DigitsText),
  maxheight: Type.Optional(DigitsText),
  next: Type.Optional(CursorText),
})
/** Paging query parameters as received (strings), of GET block, header and hash and of their branch POSTs. */
export type BlockQuery = Static<typeof BlockQuery>

/** The query parameters of `GET {base}/cut` as received: `maxheight`, a cut height (the sum over chains). */
export const CutQuery = Type.Object({ maxheight: Type.Optional(DigitsText) })
/** The query parameters of `GET {base}/cut` as received. */
export type CutQuery = Static<typeof CutQuery>

/** The body of `GET {base}/cut`: the best head of every chain. */
export const Cut = Type.Object({
  hashes: Type.Record(Type.String({ pattern: '^[0-9]+$' }), Type.Object({ height: Type.Integer({ minimum: 0 }), hash: BlockHash }), {
    additionalProperties: false,
  }),
  origin: Type.Null(),
  weight: U256Text,
  height: Type.Integer({ minimum: 0 }),
  instance: NetworkName,
  id: BlockHash,
})
/** The body of `GET {base}/cut`: the best head of every chain. */
export type Cut = Static<typeof Cut>

/** An RFC 9457 problem body with a stable upper-case `code` (spec profile). */
export const Problem = Type.Object({
  type: Type.String(),
  title: Type.String(),
  status: Type.Integer({ minimum: 400, maximum: 599 }),
  detail: Type.String(),
  code: Type.String({ pattern: '^[A-Z][A-Z0-9_]*$' }),
})
/** An RFC 9457 problem body with a stable upper-case `code` (spec profile). */
export type Problem = Static<typeof Problem>

/** The `chainweb` profile's body for an unknown cursor or bound: `{"key":"<hash>","reason":"key not found"}`. */
export const KeyNotFound = Type.Object({ key: Type.String(), reason: Type.String() })
/** The `chainweb` profile's body for an unknown cursor or bound. */
export type KeyNotFound = Static<typeof KeyNotFound>
