import { type TSchema, Type } from '@sinclair/typebox'

// The bodies and answers of chainweb-node's read-only Pact service (routes/pact-routes.ts), chainweb profile only.

const RequestKey = Type.String({
  pattern: '^[A-Za-z0-9_-]+$',
  description: 'a request key: the command hash, unpadded base64url (43 characters)',
})

/** The metadata the node puts in a command result it answers: the block that holds the transaction. */
const PollMetadata = Type.Object(
  {
    blockTime: Type.Integer({ description: "the block's creation time, microseconds since the epoch" }),
    prevBlockHash: Type.String(),
    blockHash: Type.String(),
    blockHeight: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
)

/** A Pact command result as `/poll` and `/listen` answer it: the payload's output, its `metaData` the block's. */
const CommandResult = Type.Object(
  {
    gas: Type.Integer({ minimum: 0 }),
    result: Type.Object({
      status: Type.Union([Type.Literal('success'), Type.Literal('failure')]),
      data: Type.Optional(Type.Unknown({ description: 'the value of a success' })),
      error: Type.Optional(Type.Unknown({ description: 'the error of a failure' })),
    }),
    reqKey: RequestKey,
    logs: Type.Union([Type.String(), Type.Null()]),
    events: Type.Optional(
      Type.Array(
        Type.Object({
          name: Type.String(),
          params: Type.Array(Type.Unknown()),
          module: Type.Object({ name: Type.String(), namespace: Type.Union([Type.String(), Type.Null()]) }),
          moduleHash: Type.String(),
        }),
      ),
    ),
    metaData: PollMetadata,
    continuation: Type.Union([Type.Object({}), Type.Null()]),
    txId: Type.Union([Type.Integer(), Type.Null()]),
  },
  { description: 'the command result of chainweb-node 3.2 (Pact 5 `CommandResult`); every byte but `metaData` as the payload holds it' },
)

const Height = Type.Integer({ minimum: 0 })
const UtcTime = Type.String({ description: 'ISO 8601, UTC (aeson UTCTime)' })

/** chainweb-data's `EventDetail`. */
const EventDetail = Type.Object({
  name: Type.String(),
  params: Type.Array(Type.Unknown()),
  moduleHash: Type.String(),
  chain: Type.Integer({ minimum: 0 }),
  height: Height,
  blockTime: UtcTime,
  blockHash: Type.String(),
  requestKey: Type.String({ description: 'the transaction, or `<coinbase>`' }),
  idx: Type.Integer({ minimum: 0 }),
})

/** chainweb-data's `TransferDetail`. */
const TransferDetail = Type.Object({
  blockHash: Type.String(),
  requestKey: Type.String(),
  chain: Type.Integer({ minimum: 0 }),
  height: Height,
  idx: Type.Integer({ minimum: 0 }),
  token: Type.String(),
  fromAccount: Type.String(),
  toAccount: Type.String(),
  amount: Type.String({ description: "Haskell's show of the exact amount: 1.0, 7.41e-3" }),
  blockTime: UtcTime,
  crossChainAccount: Type.Union([Type.String(), Type.Null()]),
  crossChainId: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
})

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

/** chainweb-data's `TxSummary`. */
const TxSummary = Type.Object({
  chain: Type.Integer({ minimum: 0 }),
  height: Height,
  blockHash: Type.String(),
  creationTime: UtcTime,
  requestKey: Type.String(),
  sender: Type.String(),
  code: nullable(Type.String()),
  continuation: Type.Unknown(),
  result: Type.Union([Type.Literal('TxSucceeded'), Type.Literal('TxFailed')]),
  initialCode: nullable(Type.String()),
  previousSteps: nullable(Type.Array(Type.String())),
})

/** chainweb-data's `TxDetail`. */
const TxDetail = Type.Object({
  ttl: Type.Number(),
  gasLimit: Type.Number(),
  gasPrice: Type.Number(),
  nonce: Type.String(),
  pactId: nullable(Type.String()),
  rollback: nullable(Type.Boolean()),
  step: nullable(Type.Integer()),
  data: Type.Unknown(),
  proof: nullable(Type.String()),
  gas: Type.Number(),
  result: Type.Unknown(),
  logs: Type.String(),
  metadata: Type.Unknown(),
  continuation: Type.Unknown(),
  txid: Type.Integer(),
  chain: Type.Integer({ minimum: 0 }),
  height: Height,
  blockTime: UtcTime,
  blockHash: Type.String(),
  creationTime: UtcTime,
  requestKey: Type.String(),
  sender: Type.String(),
  code: nullable(Type.String()),
  success: Type.Boolean(),
  events: Type.Array(Type.Object({ name: Type.String(), params: Type.Array(Type.Unknown()) })),
  initialCode: nullable(Type.String()),
  previousSteps: nullable(Type.Array(Type.String())),
  signers: Type.Array(Type.Object({ pubKey: Type.String(), clist: Type.Array(Type.Unknown()) })),
  sigs: Type.Array(Type.Unknown()),
  verifiers: nullable(Type.Array(Type.Unknown())),
})

/** The Pact service's and chainweb-data's schemas, added to the document's components. */
export const pactSchemas = {
  EventDetailList: Type.Array(EventDetail),
  TxSummaryList: Type.Array(TxSummary),
  TxDetail,
  TxDetailList: Type.Array(TxDetail),
  TransferDetailList: Type.Array(TransferDetail),
  ChainwebDataStats: Type.Object(
    { transactionCount: nullable(Type.Integer({ minimum: 0 })), coinsInCirculation: nullable(Type.Number()) },
    { description: 'chainweb-data `ChainwebDataStats`: Weft answers null for both (neither is in the blocks)' },
  ),
  PollRequest: Type.Object({ requestKeys: Type.Array(RequestKey, { minItems: 1 }) }),
  ListenRequest: Type.Object({ listen: RequestKey }),
  CommandResult,
  PollResponse: Type.Record(Type.String(), CommandResult, {
    description: 'request key -> command result, for the keys found on the winning branch (the others are left out)',
  }),
}
