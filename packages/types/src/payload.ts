import { type Static, Type } from '@sinclair/typebox'
import { BlockHash } from './primitives.js'

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
