import { type Static, Type } from '@sinclair/typebox'
import { BlockHash, HashInput, NetworkName, U256Text } from './primitives.js'

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
  nodeServiceDate: Type.Union([
    Type.String({
      pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$',
      description: 'ISO 8601 UTC date-time',
    }),
    Type.Null(),
  ]),
  nodeVersion: NetworkName,
})
/** The body of `GET /info`. */
export type NodeInfo = Static<typeof NodeInfo>

// `null` means empty; duplicates are ignored by the server.
const Bounds = Type.Union([Type.Array(HashInput), Type.Null()])

/** The body of a branch query: blocks above some upper bound and not above any lower bound. */
export const BranchBounds = Type.Object({ lower: Type.Optional(Bounds), upper: Type.Optional(Bounds) })
/** The body of a branch query: blocks above some upper bound and not above any lower bound. */
export type BranchBounds = Static<typeof BranchBounds>

/** Paging query parameters as received (strings); the server checks them per profile. */
export const BlockQuery = Type.Object({
  limit: Type.Optional(Type.String({ pattern: '^[0-9]+$' })),
  next: Type.Optional(Type.String()),
  minheight: Type.Optional(Type.String({ pattern: '^[0-9]+$' })),
  maxheight: Type.Optional(Type.String({ pattern: '^[0-9]+$' })),
})
/** Paging query parameters as received (strings); the server checks them per profile. */
export type BlockQuery = Static<typeof BlockQuery>

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
