import type { OperationSpec } from './openapi-operations.js'

// The filtered streams (streams/index-streams.ts), in both profiles; their event schemas: openapi-filtered-schemas.ts.

type Json = Record<string, unknown>

const stream = { type: 'string', description: 'server-sent events; a comment `:` while idle' }
const description =
  'an event stream of what the filter takes from each block as it joins the winning branch (with `depth`: once it lies ' +
  "that many below its chain's head), in that order, from the block's payload: no index needed. Each event's id is " +
  '`<epoch>.<sequence>.<k>` (the block, then the frame among its frames for this filter); `Last-Event-ID` or `since` ' +
  "resumes after it within the feed's window (`--stream-retention` blocks); otherwise the first event is `ResumeFromPage`"

const operation = (
  path: string,
  operationId: string,
  summary: string,
  event: 'TransactionUpdateEvent' | 'TransferUpdateEvent' | 'EventUpdateEvent',
  query: Json[],
): OperationSpec => ({
  path: `{base}/${path}`,
  method: 'get',
  operationId,
  summary,
  tag: 'updates',
  parameters: ['resume'],
  ownParameters: query,
  ok: { description, representations: [{ mediaType: 'text/event-stream', schema: stream, itemSchema: event }] },
  codes: ['INVALID_QUERY', 'TOO_MANY_STREAMS'],
})

const queryText = (name: string, required: boolean, about: string): Json => ({
  name,
  in: 'query',
  required,
  description: about,
  schema: { type: 'string', minLength: 1, maxLength: 256 },
})

/** The filtered streams' operations. */
export const filteredStreamOperations: readonly OperationSpec[] = [
  operation(
    'transaction/updates',
    'streamTransaction',
    'Server-sent events `event:Transaction`: where one request key joins the winning branch',
    'TransactionUpdateEvent',
    [
      {
        ...queryText('requestKey', true, 'the request key: 43 characters of base64url'),
        schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' },
      },
    ],
  ),
  operation(
    'transfer/updates',
    'streamTransfers',
    "Server-sent events `event:Transfer`: an account's fungible transfers, sent or received",
    'TransferUpdateEvent',
    [queryText('account', true, 'the account name'), queryText('token', false, 'only this fungible module (e.g. coin)')],
  ),
  operation(
    'event/updates',
    'streamEvents',
    'Server-sent events `event:Event`: events by qualified name or by module',
    'EventUpdateEvent',
    [
      queryText('name', false, 'a qualified event name, e.g. coin.TRANSFER (exactly one of name and module)'),
      queryText('module', false, 'a qualified module name, e.g. coin'),
    ],
  ),
]
