import { basePath, type ProfileRules } from '../profile/profiles.js'
import { cachingOf } from './openapi-caching.js'
import { chainwebDataOperations } from './openapi-chainweb-data.js'
import { errorResponses } from './openapi-errors.js'
import { examplesOf } from './openapi-examples.js'
import { filteredStreamOperations } from './openapi-filtered-streams.js'
import { indexOperations } from './openapi-index.js'
import { type OperationSpec, operations, type Representation } from './openapi-operations.js'
import { operatorOperations } from './openapi-operator-operations.js'
import { pactOperations } from './openapi-pact.js'
import { componentSchemas, ref, type SchemaName } from './openapi-schemas.js'

type Json = Record<string, unknown>

// The operations name the spec profile's schemas; the chainweb profile has its own for headers and blocks.
const chainwebNames: Partial<Record<SchemaName, SchemaName>> = {
  BlockPage: 'ChainwebBlockPage',
  BlockHeader: 'ChainwebBlockHeader',
  HeaderObjectPage: 'ChainwebHeaderObjectPage',
  HeaderUpdateEvent: 'ChainwebHeaderUpdateEvent',
  BlockUpdateEvent: 'ChainwebBlockUpdateEvent',
}

const parameters: Readonly<Record<string, Json>> = {
  chain: { name: 'chain', in: 'path', required: true, description: 'a chain id of the network', schema: { type: 'integer', minimum: 0 } },
  hash: { name: 'hash', in: 'path', required: true, description: 'a block hash', schema: ref('BlockHash') },
  payloadHash: { name: 'payloadHash', in: 'path', required: true, description: 'a payload hash', schema: ref('BlockHash') },
  limit: { name: 'limit', in: 'query', required: false, description: 'most items to answer (capped)', schema: ref('DigitsText') },
  next: { name: 'next', in: 'query', required: false, description: 'the cursor of a previous page', schema: ref('CursorText') },
  minheight: { name: 'minheight', in: 'query', required: false, description: 'lowest height', schema: ref('DigitsText') },
  maxheight: { name: 'maxheight', in: 'query', required: false, description: 'highest height', schema: ref('DigitsText') },
  confirmationDepth: {
    name: 'confirmationDepth',
    in: 'query',
    required: false,
    description: "only results in blocks at least this many blocks below the chain's head (0: the head itself counts)",
    schema: ref('DigitsText'),
  },
  cutMaxheight: {
    name: 'maxheight',
    in: 'query',
    required: false,
    description: 'a cut height: the cut as it was there',
    schema: ref('DigitsText'),
  },
  lastEventId: {
    name: 'Last-Event-ID',
    in: 'header',
    required: false,
    description:
      'the id of the last event seen (`<epoch>.<sequence>`): the stream first sends the events after it, in order; an id the node no longer keeps (or never gave) is answered with a `ResumeFromPage` event',
    schema: { type: 'string' },
  },
  since: {
    name: 'since',
    in: 'query',
    required: false,
    description: 'as `Last-Event-ID`, for clients that cannot send headers; `Last-Event-ID` wins when both are sent',
    schema: { type: 'string' },
  },
  depth: {
    name: 'depth',
    in: 'query',
    required: false,
    description:
      'a confirmation depth: the stream announces each block of the winning branch once it lies `depth` below its ' +
      "chain's head, never an orphan (a reorg deeper than `depth` announces the new winners at heights already announced); " +
      'each chain in height order; ids of its own. At most 8 different depths are followed at once (`TOO_MANY_STREAMS` beyond)',
    schema: { type: 'integer', minimum: 0, maximum: 1000 },
  },
}

const parameterRef = (name: string): Json => ({ $ref: `#/components/parameters/${name}` })

function parametersOf(spec: OperationSpec): Json[] {
  const own = (spec.ownParameters ?? []) as Json[]
  return spec.parameters
    .flatMap((name) =>
      name === 'page'
        ? ['limit', 'next', 'minheight', 'maxheight'].map(parameterRef)
        : name === 'cut'
          ? [parameterRef('cutMaxheight')]
          : name === 'resume'
            ? [parameterRef('lastEventId'), parameterRef('since'), parameterRef('depth')]
            : [parameterRef(name)],
    )
    .concat(own)
}

const tags = [
  { name: 'node', description: 'Health, node information and the cut' },
  { name: 'blocks', description: 'Pages and branches of full blocks' },
  { name: 'headers', description: 'Pages and branches of headers, and single headers' },
  { name: 'hashes', description: 'Pages and branches of block hashes' },
  { name: 'payloads', description: 'Payloads, single and in batches' },
  { name: 'updates', description: 'Server-sent events of new headers and blocks' },
  { name: 'operator', description: "The operator's endpoints: this document, metrics and the status page" },
  { name: 'pact', description: "chainweb-node's Pact service, read-only: results of transactions from the stored payloads' outputs" },
  { name: 'chainweb-data', description: "chainweb-data's API at the host root: events and transfers from the transaction index" },
  { name: 'index', description: 'Transactions, events and transfers from the transaction index, each copy marked canonical or orphaned' },
]

/** The OpenAPI 3.1 document of a node: its profile's paths, answers and errors, components from the @weft/types schemas. */
export function openApiDocument(rules: ProfileRules, network: string, version: string): Json {
  const base = basePath(rules, network)
  const examples: Record<string, unknown> = examplesOf(rules)
  const schemaOf = (schema: Representation['schema']): Json =>
    typeof schema === 'string' ? ref(rules.name === 'chainweb' ? (chainwebNames[schema] ?? schema) : schema) : schema
  // A stream's text, decoded, is its events in order: its `contentSchema` says so (linters and
  // JSON Schema tools read that; `x-itemSchema` is the name OpenAPI 3.2 gives one event).
  const streamOf = (schema: Json, item: Representation['itemSchema']): Json =>
    item === undefined
      ? schema
      : { ...schema, contentMediaType: 'text/event-stream', contentSchema: { type: 'array', items: schemaOf(item) } }
  const paths: Record<string, Json> = {}
  const profileOperations = [
    ...(rules.pactService ? pactOperations : []),
    ...(rules.chainwebData ? chainwebDataOperations : []),
    ...(rules.indexResources ? indexOperations : []),
  ]
  for (const spec of [...operations, ...filteredStreamOperations, ...profileOperations, ...operatorOperations]) {
    const contentOf = (representations: readonly Representation[]): Json =>
      Object.fromEntries(
        representations.map((representation) => [
          representation.mediaType,
          {
            schema: streamOf(schemaOf(representation.schema), representation.itemSchema),
            ...(representation.itemSchema === undefined ? {} : { 'x-itemSchema': schemaOf(representation.itemSchema) }),
            ...(representation.example === undefined ? {} : { example: examples[representation.example] }),
          },
        ]),
      )
    const caching = spec.ok === undefined ? undefined : cachingOf(spec.operationId, spec.method, spec.ok.representations.length > 1)
    const operation: Json = {
      operationId: spec.operationId,
      summary: spec.summary,
      ...(spec.description === undefined ? {} : { description: spec.description }),
      tags: [spec.tag],
      ...(spec.parameters.length + (spec.ownParameters?.length ?? 0) > 0 ? { parameters: parametersOf(spec) } : {}),
      ...(spec.body === undefined
        ? {}
        : {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: ref(spec.body.schema), example: examples[spec.body.example] } },
            },
          }),
      responses: {
        ...(spec.ok === undefined || caching === undefined
          ? {}
          : {
              200: {
                description: spec.ok.description,
                headers: { ...caching.headers, ...(spec.okHeaders ?? {}) },
                content: contentOf(spec.ok.representations),
              },
              ...caching.notModified,
            }),
        ...(spec.unavailable === undefined
          ? {}
          : { 503: { description: spec.unavailable.description, content: contentOf(spec.unavailable.representations) } }),
        ...errorResponses(rules, spec.codes),
      },
    }
    const path = spec.path.replace('{base}', base)
    paths[path] = {
      ...paths[path],
      [spec.method]: operation,
    }
  }
  // CORS preflight: every path answers OPTIONS with the methods it allows.
  for (const [path, item] of Object.entries(paths)) {
    const [first] = Object.values(item) as Json[]
    item.options = {
      operationId: `${String(first?.operationId)}Options`,
      summary: 'CORS preflight: the methods this path allows',
      tags: first?.tags,
      ...(first?.parameters === undefined ? {} : { parameters: first.parameters }),
      responses: {
        204: { description: 'No Content: `allow` and `access-control-allow-methods` list the methods of the path' },
        // A preflight is answered on every known path: never 405. A chain the network lacks is 404.
        ...Object.fromEntries(
          Object.entries(errorResponses(rules, path.includes('{chain}') ? ['NOT_FOUND'] : [])).filter(([status]) => status !== '405'),
        ),
      },
    }
    paths[path] = item
  }
  const document: Json = {
    openapi: '3.1.0',
    info: {
      title: 'Weft node',
      version,
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        `Read-only chain query node, ${rules.name} profile, network ${network}. Every response carries \`x-peer-addr\`, ` +
        `\`x-server-timestamp\`, \`${rules.nodeVersionHeader}\` and \`access-control-allow-origin: *\`; HEAD is answered wherever GET is, ` +
        'with the same status and headers and no body. JSON bodies are `application/json;charset=utf-8`. ' +
        'Every 200 answer but the event streams carries a strong `ETag` (the SHA-256 of its body) and a `Cache-Control` (each operation says which); ' +
        'a GET or HEAD whose `If-None-Match` matches is answered 304 without a body; a POST is always answered in full. Error answers are `no-store`. ' +
        'HTTP that node cannot parse, or HTTP/1.1 without Host, is answered 400 (`MALFORMED_REQUEST`), headers over 16 KiB 431 ' +
        "(`HEADERS_TOO_LARGE`), with the common headers and the profile's error body, before any operation is known; the connection is then closed.",
    },
    servers: [{ url: '/', description: 'this node' }],
    security: [],
    tags: tags.filter(
      (tag) =>
        (tag.name !== 'pact' || rules.pactService) &&
        (tag.name !== 'chainweb-data' || rules.chainwebData) &&
        (tag.name !== 'index' || rules.indexResources),
    ),
    paths,
  }
  // `confirmationDepth` belongs to the Pact service, which only the chainweb profile serves.
  const used = Object.fromEntries(Object.entries(parameters).filter(([name]) => rules.pactService || name !== 'confirmationDepth'))
  document.components = { schemas: componentSchemas({ document, parameters: used }), parameters: used }
  return document
}
