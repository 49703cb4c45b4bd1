import { Type } from '@sinclair/typebox'
import {
  BlockHash,
  BlockHeader,
  ChainId,
  ChainwebBlockHeader,
  NetworkName,
  PageOf,
  Payload,
  PayloadWithOutputs,
  Profile,
  schemas,
} from '@weft/types'

import { filteredStreamSchemas } from './openapi-filtered-schemas.js'
import { indexSchemas } from './openapi-index-schemas.js'
import { pactSchemas } from './openapi-pact-schemas.js'

type Json = Record<string, unknown>

/** A binary block header as unpadded base64url (318 bytes with 3 adjacents: 424 characters). */
const HeaderBinaryText = Type.String({ pattern: '^[A-Za-z0-9_-]+$', description: 'unpadded base64url of the binary header' })

const HeadSummary = Type.Object({ height: Type.Integer({ minimum: 0 }), hash: BlockHash })

/** Whether the store takes writes (operator/store-state.ts). */
const StoreWriteStatus = Type.Object(
  {
    writable: Type.Boolean(),
    reason: Type.Union([Type.Literal('STORE_FULL'), Type.Null()]),
    folder: Type.Union([Type.String(), Type.Null()]),
    freeBytes: Type.Union([Type.Integer({ minimum: -1 }), Type.Null()]),
    since: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { description: 'whether the store takes writes: not while the disk under it is full (reads go on)' },
)

/** The body of `GET /status` (operator/node-status.ts). */
const NodeStatus = Type.Object({
  network: NetworkName,
  profile: Profile,
  version: Type.String(),
  cutPath: Type.String(),
  source: Type.Union([Type.Literal('devnet'), Type.Literal('store')]),
  now: Type.Integer({ description: 'milliseconds since the epoch' }),
  cutHeight: Type.Integer({ minimum: 0 }),
  blocksPerSecond: Type.Number({ minimum: 0 }),
  chains: Type.Array(
    Type.Object({
      chain: ChainId,
      height: Type.Integer({ minimum: 0 }),
      hash: BlockHash,
      creationTime: Type.Integer({ description: 'microseconds' }),
    }),
  ),
  store: StoreWriteStatus,
  reorgs: Type.Array(
    Type.Object({
      chain: ChainId,
      at: Type.Integer(),
      depth: Type.Integer({ minimum: 1 }),
      forkHeight: Type.Integer({ minimum: 0 }),
      from: HeadSummary,
      to: HeadSummary,
    }),
  ),
})

// A block or a copy found by the status page's search: on its chain's winning branch or not, and its depth.
const standing = { canonical: Type.Boolean(), depth: Type.Integer() }

/** The body of `GET /search` (operator/node-search.ts). */
const SearchAnswer = Type.Object({
  query: Type.String(),
  kind: Type.Union([Type.Literal('hash'), Type.Literal('height'), Type.Literal('account')]),
  index: Type.Union([Type.Literal('complete'), Type.Literal('catching-up'), Type.Literal('disabled')]),
  blocks: Type.Array(Type.Object({ chain: ChainId, height: Type.Integer({ minimum: 0 }), hash: BlockHash, ...standing })),
  transactions: Type.Array(
    Type.Object({
      requestKey: BlockHash,
      chain: ChainId,
      height: Type.Integer({ minimum: 0 }),
      blockHash: BlockHash,
      position: Type.Integer({ minimum: -1 }),
      ...standing,
    }),
  ),
  transfers: Type.Array(
    Type.Object({
      requestKey: Type.String(),
      chain: ChainId,
      height: Type.Integer({ minimum: 0 }),
      blockHash: BlockHash,
      token: Type.String(),
      sender: Type.String(),
      receiver: Type.String(),
      amount: Type.String({ pattern: '^-?[0-9]+(\\.[0-9]+)?$' }),
      ...standing,
    }),
  ),
  moreTransfers: Type.Boolean(),
})

/** The body of `GET /ready` (routes/ready-route.ts), 200 and 503 alike. */
const ReadyBody = Type.Object({
  ready: Type.Boolean(),
  store: StoreWriteStatus,
  damaged: Type.Union([Type.Object({ detail: Type.String(), since: Type.String({ format: 'date-time' }) }), Type.Null()], {
    description: 'a damaged table file met by a read since the node started (STORE_DAMAGED): unready until repaired',
  }),
  phase: Type.String({ description: '`devnet`, or the ingest phase: `starting`, `copying`, `following`, `stopped`, `failed`' }),
  lag: Type.Record(Type.String({ pattern: '^[0-9]+$' }), Type.Integer({ minimum: 0 }), {
    description: "chain id -> heights behind the best upstream's cut",
  }),
  maxLag: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  staleAfter: Type.Union([Type.Number({ minimum: 0, description: 'seconds' }), Type.Null()]),
  upstreams: Type.Array(
    Type.Object({
      url: Type.String(),
      state: Type.String(),
      lastContact: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      lastError: Type.Union([
        Type.Object({ code: Type.String(), message: Type.String(), at: Type.String({ format: 'date-time' }) }),
        Type.Null(),
      ]),
      retries: Type.Integer({ minimum: 0 }),
    }),
  ),
})

const componentRef = (name: string): Json => ({ $ref: `#/components/schemas/${name}` })

// The data of a `/block/updates` event: a header update's and the block's payload with outputs.
const blockUpdate = (headerUpdate: string): Json => ({
  allOf: [
    componentRef(headerUpdate),
    { type: 'object', required: ['payloadWithOutputs'], properties: { payloadWithOutputs: componentRef('PayloadWithOutputs') } },
  ],
})

// One event of an update stream, as OpenAPI 3.2 describes a `text/event-stream` item (its
// `itemSchema`; the document, 3.1, gives it as `x-itemSchema`): the event's name and its one data
// line, whose text is JSON of `data`. Docs: docs/wire/endpoints.md, "Event streams".
const updateEvent = (data: string, stream: string): Json => ({
  type: 'object',
  description: `One event of ${stream}: \`event:BlockHeader\`, then one \`data:\` line of JSON`,
  required: ['event', 'data'],
  properties: {
    event: { const: 'BlockHeader' },
    data: { type: 'string', contentMediaType: 'application/json', contentSchema: componentRef(data) },
  },
})

/** Schemas of the answers that @weft/types names only as parts: pages of headers and hashes, payload batches, update events. */
const answerSchemas = {
  HeaderBinaryText,
  HeaderPage: PageOf(HeaderBinaryText),
  HeaderObjectPage: PageOf(BlockHeader),
  ChainwebHeaderObjectPage: PageOf(ChainwebBlockHeader),
  HashPage: PageOf(BlockHash),
  PayloadList: Type.Array(Payload),
  PayloadWithOutputsList: Type.Array(PayloadWithOutputs),
  BlockUpdate: blockUpdate('HeaderUpdate'),
  ChainwebBlockUpdate: blockUpdate('ChainwebHeaderUpdate'),
  HeaderUpdateEvent: updateEvent('HeaderUpdate', '`/header/updates`'),
  ChainwebHeaderUpdateEvent: updateEvent('ChainwebHeaderUpdate', '`/header/updates`'),
  BlockUpdateEvent: updateEvent('BlockUpdate', '`/block/updates`'),
  ChainwebBlockUpdateEvent: updateEvent('ChainwebBlockUpdate', '`/block/updates`'),
  NodeStatus,
  SearchAnswer,
  ReadyBody,
  OpenApiDocument: Type.Object({ openapi: Type.Literal('3.1.0'), paths: Type.Record(Type.String(), Type.Object({})) }),
  ...pactSchemas,
  ...filteredStreamSchemas,
  ...indexSchemas,
}

/** The name of a component schema of the document. */
export type SchemaName = keyof typeof schemas | keyof typeof answerSchemas

/** `{"$ref": "#/components/schemas/<name>"}`. */
export const ref = (name: SchemaName): Json => ({ $ref: `#/components/schemas/${name}` })

// TypeBox's `Type.Tuple` is draft-07: `items: [...]` with `additionalItems: false`. JSON Schema
// 2020-12, the dialect of OpenAPI 3.1, says `prefixItems: [...]` with `items: false`.
function to202012(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(to202012)
  if (typeof value !== 'object' || value === null) return value
  const out: Json = {}
  for (const [key, inner] of Object.entries(value)) out[key] = to202012(inner)
  if (Array.isArray(out.items)) {
    out.prefixItems = out.items
    out.items = out.additionalItems === false ? false : (out.additionalItems ?? {})
    delete out.additionalItems
  }
  return out
}

/**
 * The component schemas a document needs: those of @weft/types and the answers' own, as JSON
 * Schema 2020-12, keeping only those `document` refers to (directly or through each other).
 */
export function componentSchemas(document: unknown): Json {
  const all = to202012(JSON.parse(JSON.stringify({ ...schemas, ...answerSchemas }))) as Record<string, Json>
  const used = new Set<string>()
  const visit = (value: unknown): void => {
    const text = JSON.stringify(value)
    for (const [, name = ''] of text.matchAll(/"#\/components\/schemas\/([A-Za-z0-9]+)"/g)) {
      if (used.has(name)) continue
      used.add(name)
      visit(all[name])
    }
  }
  visit(document)
  return Object.fromEntries(Object.entries(all).filter(([name]) => used.has(name)))
}
