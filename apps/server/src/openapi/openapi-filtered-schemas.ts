import { Type } from '@sinclair/typebox'
import { BlockHash, ChainId } from '@weft/types'

// The filtered streams' event data (streams/index-streams.ts; their operations: openapi-filtered-streams.ts).

type Json = Record<string, unknown>

const place = {
  requestKey: Type.String({ description: 'the request key of the transaction (the coinbase: its own)' }),
  chain: ChainId,
  height: Type.Integer({ minimum: 0 }),
  blockHash: BlockHash,
  position: Type.Integer({ minimum: -1, description: "the transaction's index in the payload; -1: the coinbase" }),
}
const pactId = Type.Union([Type.String(), Type.Null()], {
  description: 'the pact a later step of a defpact continues (a cross-chain transfer links its two legs by it)',
})

// One event of a filtered stream: its name and one `data:` line of JSON (as the update streams' events).
const filteredEvent = (event: string, data: string): Json => ({
  type: 'object',
  description: `One event: \`event:${event}\`, one \`data:\` line of JSON, an \`id:\` line`,
  required: ['event', 'data'],
  properties: {
    event: { const: event },
    data: { type: 'string', contentMediaType: 'application/json', contentSchema: { $ref: `#/components/schemas/${data}` } },
  },
})

/** The schemas of the filtered streams' event data. */
export const filteredStreamSchemas = {
  TransactionUpdate: Type.Object({ ...place, pactId }),
  TransferUpdate: Type.Object({
    ...place,
    index: Type.Integer({ minimum: 0, description: "the event's index in its output's events" }),
    token: Type.String({ description: 'the fungible module: coin for KDA' }),
    sender: Type.String({ description: '"" for the mint of a cross-chain transfer (and the coinbase)' }),
    receiver: Type.String({ description: '"" for the burn of a cross-chain transfer' }),
    amount: Type.String({ pattern: '^-?[0-9]+(\\.[0-9]+)?$', description: 'exact decimal text' }),
    pactId,
  }),
  EventUpdate: Type.Object({
    ...place,
    index: Type.Integer({ minimum: 0 }),
    module: Type.String({ description: 'the qualified module name' }),
    name: Type.String(),
    params: Type.Array(Type.Unknown(), { description: "the event's parameters, as in the output" }),
  }),
  TransactionUpdateEvent: filteredEvent('Transaction', 'TransactionUpdate'),
  TransferUpdateEvent: filteredEvent('Transfer', 'TransferUpdate'),
  EventUpdateEvent: filteredEvent('Event', 'EventUpdate'),
}
