import { type Static, Type } from '@sinclair/typebox'
import { BlockHash, HashInput } from './primitives.js'

// Transactions, outputs, miner data and coinbase are unpadded base64url of JSON text.
const Base64Url = Type.String({ pattern: '^[A-Za-z0-9_-]*$', description: 'unpadded base64url of JSON text' })

/** A block payload with the outputs of its transactions: `[transaction, output]` pairs. */
export const PayloadWithOutputs = Type.Object({
  transactions: Type.Array(Type.Tuple([Base64Url, Base64Url])),
  minerData: Base64Url,
  transactionsHash: BlockHash,
  outputsHash: BlockHash,
  payloadHash: BlockHash,
  coinbase: Base64Url,
})
/** A block payload with the outputs of its transactions: `[transaction, output]` pairs. */
export type PayloadWithOutputs = Static<typeof PayloadWithOutputs>

/** A block payload without outputs: a flat list of transactions. */
export const Payload = Type.Object({
  transactions: Type.Array(Base64Url),
  minerData: Base64Url,
  transactionsHash: BlockHash,
  outputsHash: BlockHash,
  payloadHash: BlockHash,
})
/** A block payload without outputs: a flat list of transactions. */
export type Payload = Static<typeof Payload>

/**
 * The body of `POST .../payload/batch` and `.../payload/outputs/batch`: payload hashes, or the real node's
 * `{"heights": [...], "hashes": [...]}` (payloads are found by hash; the heights are not needed).
 */
export const PayloadBatch = Type.Union(
  [
    Type.Array(HashInput, { description: 'an array of payload hashes' }),
    Type.Object({
      heights: Type.Optional(Type.Array(Type.Integer({ minimum: 0 }), { description: 'an array of block heights' })),
      hashes: Type.Array(HashInput, { description: 'an array of payload hashes' }),
    }),
  ],
  { description: 'a JSON array of payload hashes, or {"heights": [...], "hashes": [...]}' },
)
/** The body of a payload batch request. */
export type PayloadBatch = Static<typeof PayloadBatch>
