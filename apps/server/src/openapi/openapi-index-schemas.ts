import { Type } from '@sinclair/typebox'
import { BlockHash, ChainId } from '@weft/types'

// The spec profile's index resources (routes/index-routes.ts, read/index-bodies.ts); their operations: openapi-index.ts.

const standing = {
  canonical: Type.Boolean({ description: "whether the block lies on its chain's winning branch (else it is orphaned)" }),
  depth: Type.Integer({
    description: "the chain head's height minus the block's: 0 for the head, negative for a block above the node's cut",
  }),
}
const place = {
  requestKey: Type.String({ description: "the request key of the transaction (the coinbase's events: their own key)" }),
  chain: ChainId,
  height: Type.Integer({ minimum: 0 }),
  blockHash: BlockHash,
  position: Type.Integer({ minimum: -1, description: "the transaction's index in the payload; -1: the coinbase" }),
}
const cursor = Type.Union([Type.String({ pattern: '^inclusive:[A-Za-z0-9_-]+$' }), Type.Null()], {
  description:
    'where the next page starts (the `next` of the next request), or null after the last page; a page may be short, even empty, and still have one',
})
const pageOf = (item: string) =>
  Type.Object({
    limit: Type.Integer({ minimum: 0, description: 'the number of items' }),
    items: Type.Array(Type.Unsafe({ $ref: `#/components/schemas/${item}` })),
    next: cursor,
  })

const IndexedEvent = Type.Object({
  ...place,
  index: Type.Integer({ minimum: 0, description: "the event's index in its output's events" }),
  module: Type.String({ description: 'the qualified module name' }),
  name: Type.String(),
  params: Type.Array(Type.Unknown(), { description: "the event's parameters, as the output holds them (amounts keep every digit)" }),
  moduleHash: Type.Union([Type.String(), Type.Null()]),
  ...standing,
})

const IndexedTransfer = Type.Object({
  ...place,
  index: Type.Integer({ minimum: 0 }),
  token: Type.String({ description: 'the fungible module: coin for KDA' }),
  sender: Type.String({ description: '"" for the mint of a cross-chain transfer (and the coinbase)' }),
  receiver: Type.String({ description: '"" for the burn of a cross-chain transfer' }),
  amount: Type.String({ pattern: '^-?[0-9]+(\\.[0-9]+)?$', description: 'exact decimal text' }),
  pactId: Type.Union([Type.String(), Type.Null()], { description: 'the pact that links the two legs of a cross-chain transfer' }),
  crossChain: Type.Union([Type.Object({ chain: Type.String(), account: Type.String() }), Type.Null()], {
    description: "a cross-chain leg's other end: the target chain and receiver of a burn, the source chain and sender of a mint",
  }),
  ...standing,
})

const TransactionCopy = Type.Object({
  ...place,
  ...standing,
  command: Type.Object({}, { description: 'the signed command as the payload holds it: `{hash, sigs, cmd}`' }),
  result: Type.Object(
    {},
    { description: 'its command result as the payload holds it: `{gas, result, reqKey, logs, events, metaData, continuation, txId}`' },
  ),
})

/** The schemas of the spec profile's index resources. */
export const indexSchemas = {
  IndexedEvent,
  IndexedTransfer,
  IndexedEventPage: pageOf('IndexedEvent'),
  IndexedTransferPage: pageOf('IndexedTransfer'),
  TransactionCopy,
  TransactionCopies: Type.Object({
    requestKey: Type.String(),
    complete: Type.Boolean({ description: 'false while the index catches up on a chain asked about: a copy may be missing' }),
    copies: Type.Array(Type.Unsafe({ $ref: '#/components/schemas/TransactionCopy' }), {
      description: 'every stored copy, orphans included: canonical copies first, then newest first',
    }),
  }),
}
