import type { AnsweredCode } from '../profile/error-table.js'
import type { OperationSpec } from './openapi-operations.js'

// chainweb-data's API (routes/chainweb-data-routes.ts), chainweb profile only; its schemas: openapi-pact-schemas.ts.

const query = (name: string, description: string, schema: Record<string, unknown> = { type: 'string' }) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
})
const natural = { type: 'string', pattern: '^[0-9]+$' }
const paging = [
  query('limit', 'items at most (default 10, at most 250)', natural),
  query('offset', 'items to skip, at most 10,000 (not with `next`)', natural),
  query('next', 'the `Chainweb-Next` token of the page before'),
  query('minheight', 'lowest height', natural),
  query('maxheight', 'highest height', natural),
]
const chainwebNext = {
  'Chainweb-Next': { description: 'the token of the next page (`next=`), when there may be one', schema: { type: 'string' } },
  'Weft-Incomplete-Below': {
    description: 'while the index catches up: the height below which this page could not answer yet (follow `next` later)',
    schema: { type: 'string' },
  },
}
const codes: readonly AnsweredCode[] = ['NOT_ACCEPTABLE', 'INVALID_QUERY', 'INVALID_INDEX_QUERY', 'CURSOR_OUT_OF_RANGE', 'INDEX_DISABLED']

const requestkey = [query('requestkey', 'the request key of the transaction')]
const json = 'application/json'

/** The operations of chainweb-data's API that Weft answers. */
export const chainwebDataOperations: readonly OperationSpec[] = [
  {
    path: '/txs/recent',
    method: 'get',
    operationId: 'chainwebDataRecentTxs',
    summary: 'The 10 newest transactions of the winning branch (chainweb-data `/txs/recent`)',
    tag: 'chainweb-data',
    parameters: [],
    ok: { description: '`TxSummary`s, newest first', representations: [{ mediaType: json, schema: 'TxSummaryList' }] },
    codes: ['NOT_ACCEPTABLE', 'INDEX_DISABLED'],
  },
  {
    path: '/txs/search',
    method: 'get',
    operationId: 'chainwebDataSearchTxs',
    summary: 'Transactions whose code holds a text, newest first (chainweb-data `/txs/search`)',
    description:
      'Winning branch only. One request examines at most 5,000 transactions (newest first; each orphaned block passed over counts as one) and reads for at most about 1 s: a page that reaches either bound ends early, possibly empty, with a `Chainweb-Next` token that goes on from the next transaction. `pactid` answers the later steps of a pact (50 at most, no paging) instead.',
    tag: 'chainweb-data',
    parameters: [],
    ownParameters: [
      query('search', 'a text the code holds (plain, case-sensitive); `search` or `pactid` is required'),
      query('pactid', 'a pact id: its later steps (not with `search`)'),
      ...paging,
    ],
    okHeaders: chainwebNext,
    ok: { description: '`TxSummary`s, newest first', representations: [{ mediaType: json, schema: 'TxSummaryList' }] },
    codes: [...codes, 'TX_NOT_FOUND'],
  },
  {
    path: '/txs/tx',
    method: 'get',
    operationId: 'chainwebDataTx',
    summary: "A transaction's copy on the winning branch (chainweb-data `/txs/tx`)",
    tag: 'chainweb-data',
    parameters: [],
    ownParameters: requestkey,
    ok: { description: 'its `TxDetail`', representations: [{ mediaType: json, schema: 'TxDetail' }] },
    codes: ['NOT_ACCEPTABLE', 'TX_NOT_FOUND', 'INDEX_DISABLED'],
  },
  {
    path: '/txs/txs',
    method: 'get',
    operationId: 'chainwebDataTxs',
    summary: 'Every stored copy of a transaction, orphans included (chainweb-data `/txs/txs`)',
    tag: 'chainweb-data',
    parameters: [],
    ownParameters: requestkey,
    ok: { description: 'a `TxDetail` per copy, canonical first', representations: [{ mediaType: json, schema: 'TxDetailList' }] },
    codes: ['NOT_ACCEPTABLE', 'TX_NOT_FOUND', 'INDEX_DISABLED'],
  },
  {
    path: '/txs/events',
    method: 'get',
    operationId: 'chainwebDataEvents',
    summary: 'Events by qualified name or module, newest first (chainweb-data `/txs/events`)',
    tag: 'chainweb-data',
    parameters: [],
    ownParameters: [
      query('name', 'a qualified event name (`coin.TRANSFER`); with `modulename`, a bare name'),
      query('modulename', 'a module (`coin`, `free.crankk01`): every event of it'),
      ...paging,
    ],
    okHeaders: chainwebNext,
    ok: {
      description: '`EventDetail`s, winning branch only',
      representations: [{ mediaType: 'application/json', schema: 'EventDetailList' }],
    },
    codes,
  },
  {
    path: '/txs/account/{account}',
    method: 'get',
    operationId: 'chainwebDataAccountTransfers',
    summary: "An account's transfers of a token, newest first (chainweb-data `/txs/account/{account}`)",
    tag: 'chainweb-data',
    parameters: [],
    ownParameters: [
      { name: 'account', in: 'path', required: true, description: 'the account', schema: { type: 'string' } },
      query('token', 'the fungible module (default `coin`)'),
      query('chain', 'only this chain', natural),
      ...paging,
    ],
    okHeaders: chainwebNext,
    ok: {
      description: '`TransferDetail`s, winning branch only',
      representations: [{ mediaType: 'application/json', schema: 'TransferDetailList' }],
    },
    codes,
  },
  {
    path: '/stats',
    method: 'get',
    operationId: 'chainwebDataStats',
    summary: 'chainweb-data `/stats`: null for both figures, which the blocks do not hold',
    tag: 'chainweb-data',
    parameters: [],
    ok: { description: '`ChainwebDataStats`', representations: [{ mediaType: json, schema: 'ChainwebDataStats' }] },
    codes: ['NOT_ACCEPTABLE'],
  },
  {
    path: '/coins',
    method: 'get',
    operationId: 'chainwebDataCoins',
    summary: 'chainweb-data `/coins`: refused, the coins in circulation are Pact state (`NO_PACT_STATE`, 501)',
    tag: 'chainweb-data',
    parameters: [],
    codes: ['NO_PACT_STATE'],
  },
]
