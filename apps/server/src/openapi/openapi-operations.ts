import type { AnsweredCode } from '../profile/error-table.js'
import type { SchemaName } from './openapi-schemas.js'

/** One 200 representation of an operation: its media type, schema and example (a key of `examplesOf`). */
export interface Representation {
  readonly mediaType: string
  readonly schema: SchemaName | Record<string, unknown>
  readonly example?: string
  /** A stream's one event (`x-itemSchema`, OpenAPI 3.2's `itemSchema`): `HeaderUpdateEvent` stands for the profile's own. */
  readonly itemSchema?: SchemaName
}

/** An operation of the document, with the codes of the errors it may answer. */
export interface OperationSpec {
  /** Path, `{base}` standing for the profile's base path. */
  readonly path: string
  readonly method: 'get' | 'post'
  readonly operationId: string
  readonly summary: string
  /** What the summary leaves out (chainweb-data's search bound). */
  readonly description?: string
  readonly tag: 'node' | 'blocks' | 'headers' | 'hashes' | 'payloads' | 'updates' | 'operator' | 'pact' | 'chainweb-data' | 'index'
  /** `chain`, `hash`, `payloadHash` path parameters, `page` (limit, next, minheight, maxheight), `cut` (maxheight) or `/poll`'s `confirmationDepth` queries, `resume` (Last-Event-ID, since, depth). */
  readonly parameters: ReadonlyArray<'chain' | 'hash' | 'payloadHash' | 'page' | 'cut' | 'confirmationDepth' | 'resume'>
  /** Parameters of this operation alone, written out (chainweb-data's queries). */
  readonly ownParameters?: ReadonlyArray<Record<string, unknown>>
  /** Headers of the 200 answer (chainweb-data's `Chainweb-Next`). */
  readonly okHeaders?: Record<string, unknown>
  readonly body?: { schema: SchemaName; example: string }
  /** The 200 answer: a description and its representations (none for an endpoint that only refuses); the per-profile schemas are picked by `openapi.ts`. */
  readonly ok?: { description: string; representations: readonly Representation[] }
  /** A 503 answer that is not an error body (readiness): its description and representations. */
  readonly unavailable?: { description: string; representations: readonly Representation[] }
  /** Errors this operation answers besides 405 (other methods) and 500, which every operation may answer. */
  readonly codes: readonly AnsweredCode[]
}

const json = 'application/json'
const headerObject = 'application/json;blockheader-encoding=object'
const page: readonly AnsweredCode[] = [
  'NOT_ACCEPTABLE',
  'NOT_FOUND',
  'INVALID_QUERY',
  'INVALID_MAXHEIGHT',
  'INVALID_CURSOR',
  'CURSOR_NOT_FOUND',
  'NO_MATCHING_BLOCKS',
]
const body: readonly AnsweredCode[] = ['UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE', 'INVALID_BODY']
const branch: readonly AnsweredCode[] = [...page, ...body, 'TOO_MANY_BOUNDS', 'BLOCK_NOT_FOUND']
const branchBody = { schema: 'BranchBounds', example: 'branchBounds' } as const
const batchBody = { schema: 'PayloadBatch', example: 'payloadBatch' } as const
// `BlockPage`, `BlockHeader`, `FullBlock` and `HeaderObjectPage` stand for the profile's own (`ChainwebBlockPage` …).
const blockPage = { mediaType: json, schema: 'BlockPage', example: 'blockPage' } as const
const headerPages = [
  { mediaType: json, schema: 'HeaderPage', example: 'headerPage' },
  { mediaType: headerObject, schema: 'HeaderObjectPage', example: 'headerObjectPage' },
] as const
const hashPage = { mediaType: json, schema: 'HashPage', example: 'hashPage' } as const
const text = { type: 'string' }
const eventStream = {
  type: 'string',
  description:
    'server-sent events, each `event:BlockHeader` and one `data:` line of JSON, as `x-itemSchema` describes one, then an `id:` line ' +
    '(in the chainweb profile every object of the data has its keys in text order); a comment `:` while idle',
}
const streamDescription =
  'an event stream; each `data` is one line of JSON, and each event has an `id:` line after it (`<epoch>.<sequence>`, ' +
  'the same for an announcement on both streams) that a client sends back as `Last-Event-ID` (or `?since=`) to resume. ' +
  'The node keeps the last `--stream-retention` announcements (default 10000); for an older id, or one of another node ' +
  'or an earlier run, the first event is `event:ResumeFromPage` with `data` `{"code":"EVENT_ID_EXPIRED"|"EVENT_ID_UNKNOWN","detail","lastEventId"}` ' +
  'and the id the stream goes on from: catch up with page queries, then go on with the stream'

/** The operations of the wire contract, in the order of the document (the operator's follow: `operatorOperations`). */
export const operations: readonly OperationSpec[] = [
  {
    path: '/health-check',
    method: 'get',
    operationId: 'healthCheck',
    summary: 'Liveness: the process answers',
    tag: 'node',
    parameters: [],
    ok: {
      description: 'always `Health check OK.` and a newline',
      representations: [{ mediaType: 'text/plain', schema: { ...text, const: 'Health check OK.\n' } }],
    },
    codes: [],
  },
  {
    path: '/info',
    method: 'get',
    operationId: 'getInfo',
    summary: 'Node information: network, chains, graphs, versions',
    tag: 'node',
    parameters: [],
    ok: { description: 'node information', representations: [{ mediaType: json, schema: 'NodeInfo', example: 'info' }] },
    codes: ['NOT_ACCEPTABLE'],
  },
  {
    path: '{base}/cut',
    method: 'get',
    operationId: 'getCut',
    summary: "The node's cut: the head of every chain",
    tag: 'node',
    parameters: ['cut'],
    ok: {
      description: 'the cut, or the cut at a cut height with `maxheight`',
      representations: [{ mediaType: json, schema: 'Cut', example: 'cut' }],
    },
    codes: ['NOT_ACCEPTABLE', 'INVALID_QUERY'],
  },
  {
    path: '{base}/chain/{chain}/block',
    method: 'get',
    operationId: 'getBlocks',
    summary: 'Ascending page of full blocks, orphans included',
    tag: 'blocks',
    parameters: ['chain', 'page'],
    ok: { description: 'ascending page of full blocks (limit default and cap 360)', representations: [blockPage] },
    codes: page,
  },
  {
    path: '{base}/chain/{chain}/block/branch',
    method: 'post',
    operationId: 'getBlockBranch',
    summary: 'Descending page of the blocks between lower and upper bounds',
    tag: 'blocks',
    parameters: ['chain', 'page'],
    body: branchBody,
    ok: { description: 'descending page of full blocks', representations: [blockPage] },
    codes: branch,
  },
  {
    path: '{base}/chain/{chain}/header',
    method: 'get',
    operationId: 'getHeaders',
    summary: 'Ascending page of headers: binary (base64url) or objects',
    tag: 'headers',
    parameters: ['chain', 'page'],
    ok: { description: 'ascending page of headers', representations: headerPages },
    codes: page,
  },
  {
    path: '{base}/chain/{chain}/header/branch',
    method: 'post',
    operationId: 'getHeaderBranch',
    summary: 'Descending page of the headers between lower and upper bounds',
    tag: 'headers',
    parameters: ['chain', 'page'],
    body: branchBody,
    ok: { description: 'descending page of headers', representations: headerPages },
    codes: branch,
  },
  {
    path: '{base}/chain/{chain}/header/{hash}',
    method: 'get',
    operationId: 'getHeader',
    summary: 'One header: base64url text, object or raw bytes',
    tag: 'headers',
    parameters: ['chain', 'hash'],
    ok: {
      description: 'the header, in the representation the Accept header asks for',
      representations: [
        { mediaType: json, schema: 'HeaderBinaryText', example: 'headerBinaryText' },
        { mediaType: headerObject, schema: 'BlockHeader', example: 'header' },
        { mediaType: 'application/octet-stream', schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
      ],
    },
    codes: ['NOT_ACCEPTABLE', 'NOT_FOUND', 'INVALID_HASH', 'BLOCK_NOT_FOUND'],
  },
  {
    path: '{base}/chain/{chain}/hash',
    method: 'get',
    operationId: 'getHashes',
    summary: 'Ascending page of block hashes',
    tag: 'hashes',
    parameters: ['chain', 'page'],
    ok: { description: 'ascending page of hashes (limit default and cap 4096)', representations: [hashPage] },
    codes: page,
  },
  {
    path: '{base}/chain/{chain}/hash/branch',
    method: 'post',
    operationId: 'getHashBranch',
    summary: 'Descending page of the hashes between lower and upper bounds',
    tag: 'hashes',
    parameters: ['chain', 'page'],
    body: branchBody,
    ok: { description: 'descending page of hashes', representations: [hashPage] },
    codes: branch,
  },
  {
    path: '{base}/chain/{chain}/payload/{payloadHash}',
    method: 'get',
    operationId: 'getPayload',
    summary: 'A payload without outputs, looked up node-wide',
    tag: 'payloads',
    parameters: ['chain', 'payloadHash'],
    ok: { description: 'the payload', representations: [{ mediaType: json, schema: 'Payload', example: 'payload' }] },
    codes: ['NOT_ACCEPTABLE', 'NOT_FOUND', 'INVALID_HASH', 'PAYLOAD_NOT_FOUND'],
  },
  {
    path: '{base}/chain/{chain}/payload/{payloadHash}/outputs',
    method: 'get',
    operationId: 'getPayloadWithOutputs',
    summary: 'A payload with outputs, looked up node-wide',
    tag: 'payloads',
    parameters: ['chain', 'payloadHash'],
    ok: {
      description: 'the payload with outputs',
      representations: [{ mediaType: json, schema: 'PayloadWithOutputs', example: 'payloadWithOutputs' }],
    },
    codes: ['NOT_ACCEPTABLE', 'NOT_FOUND', 'INVALID_HASH', 'PAYLOAD_NOT_FOUND'],
  },
  {
    path: '{base}/chain/{chain}/payload/batch',
    method: 'post',
    operationId: 'getPayloadBatch',
    summary: 'Payloads without outputs, in request order, unknown ones left out',
    tag: 'payloads',
    parameters: ['chain'],
    body: batchBody,
    ok: {
      description: 'a bare array (the first 1000 entries served)',
      representations: [{ mediaType: json, schema: 'PayloadList', example: 'payloadList' }],
    },
    codes: ['NOT_ACCEPTABLE', 'NOT_FOUND', ...body],
  },
  {
    path: '{base}/chain/{chain}/payload/outputs/batch',
    method: 'post',
    operationId: 'getPayloadWithOutputsBatch',
    summary: 'Payloads with outputs, in request order, unknown ones left out',
    tag: 'payloads',
    parameters: ['chain'],
    body: batchBody,
    ok: {
      description: 'a bare array (the first 1000 entries served)',
      representations: [{ mediaType: json, schema: 'PayloadWithOutputsList', example: 'payloadWithOutputsList' }],
    },
    codes: ['NOT_ACCEPTABLE', 'NOT_FOUND', ...body],
  },
  {
    path: '{base}/header/updates',
    method: 'get',
    operationId: 'streamHeaderUpdates',
    summary: 'Server-sent events `event:BlockHeader`, one per header (Accept ignored)',
    tag: 'updates',
    parameters: ['resume'],
    ok: {
      description: streamDescription,
      representations: [{ mediaType: 'text/event-stream', schema: eventStream, itemSchema: 'HeaderUpdateEvent', example: 'eventStream' }],
    },
    codes: ['INVALID_QUERY', 'TOO_MANY_STREAMS'],
  },
  {
    path: '{base}/block/updates',
    method: 'get',
    operationId: 'streamBlockUpdates',
    summary: 'The header events with `payloadWithOutputs` added (Accept ignored)',
    tag: 'updates',
    parameters: ['resume'],
    ok: {
      description: streamDescription,
      representations: [{ mediaType: 'text/event-stream', schema: eventStream, itemSchema: 'BlockUpdateEvent' }],
    },
    codes: ['INVALID_QUERY', 'TOO_MANY_STREAMS'],
  },
]
