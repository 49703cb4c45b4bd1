import type { AnsweredCode } from '../profile/error-table.js'
import type { OperationSpec } from './openapi-operations.js'

// The spec profile's index resources (routes/index-routes.ts); their schemas: openapi-index-schemas.ts.

type Json = Record<string, unknown>

const query = (name: string, description: string, schema: Json = { type: 'string' }, required = false): Json => ({
  name,
  in: 'query',
  required,
  description,
  schema,
})
const natural = { type: 'string', pattern: '^[0-9]+$' }
const text = { type: 'string', minLength: 1, maxLength: 256 }
const paging = [
  query('limit', 'items at most (default 100, capped at 1000)', natural),
  query('next', 'the `next` of the page before: `inclusive:` and a token', { type: 'string', pattern: '^inclusive:[A-Za-z0-9_-]+$' }),
  query('minheight', 'lowest height', natural),
  query('maxheight', 'highest height', natural),
  query('chain', 'only this chain', natural),
  query('canonical', '`true`: only copies on the winning branch (without it, orphaned copies too, marked)', {
    type: 'string',
    enum: ['true', 'false'],
  }),
]
const pageCodes: readonly AnsweredCode[] = [
  'NOT_ACCEPTABLE',
  'INVALID_QUERY',
  'INVALID_CURSOR',
  'INVALID_INDEX_QUERY',
  'CURSOR_OUT_OF_RANGE',
  'INDEX_DISABLED',
  'INDEX_CATCHING_UP',
]
const pageDescription =
  'newest first, each copy marked `canonical` or not with its `depth`. Blocks that arrive meanwhile sort before `next`: ' +
  'following it neither skips nor repeats an item. A page reads at most 10,000 index entries, so it may be short (even empty) ' +
  'and still have a `next`. While the index catches up, a page stops above the heights not indexed yet (its `next` goes on ' +
  'from there later), and one that could answer nothing is `INDEX_CATCHING_UP`'
const json = 'application/json'

/** The operations of the spec profile's index resources. */
export const indexOperations: readonly OperationSpec[] = [
  {
    path: '{base}/transaction/{requestKey}',
    method: 'get',
    operationId: 'getTransaction',
    summary: 'Every stored copy of a transaction, orphans included, each with its block, standing and depth',
    tag: 'index',
    parameters: [],
    ownParameters: [
      {
        name: 'requestKey',
        in: 'path',
        required: true,
        description: 'the request key: 43 characters of base64url',
        schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' },
      },
      query('chain', 'only copies on this chain', natural),
    ],
    ok: {
      description: 'the copies, canonical first, then newest first',
      representations: [{ mediaType: json, schema: 'TransactionCopies' }],
    },
    codes: ['NOT_ACCEPTABLE', 'INVALID_HASH', 'INVALID_QUERY', 'TX_NOT_FOUND', 'INDEX_DISABLED', 'INDEX_CATCHING_UP'],
  },
  {
    path: '{base}/event',
    method: 'get',
    operationId: 'getEvents',
    summary: 'A page of events by qualified name or by module, newest first',
    tag: 'index',
    parameters: [],
    ownParameters: [
      query('name', 'a qualified event name, e.g. coin.TRANSFER (exactly one of name and module)', text),
      query('module', 'a qualified module name, e.g. coin: every event of it', text),
      ...paging,
    ],
    ok: { description: `events, ${pageDescription}`, representations: [{ mediaType: json, schema: 'IndexedEventPage' }] },
    codes: pageCodes,
  },
  {
    path: '{base}/transfer',
    method: 'get',
    operationId: 'getTransfers',
    summary: "A page of an account's fungible transfers of one token, sent or received, newest first",
    tag: 'index',
    parameters: [],
    ownParameters: [
      query('account', 'the account name', text, true),
      query('token', 'the fungible module (default coin)', text),
      ...paging,
    ],
    ok: { description: `transfers, ${pageDescription}`, representations: [{ mediaType: json, schema: 'IndexedTransferPage' }] },
    codes: pageCodes,
  },
]
