import { schemas } from '@weft/types'
import type { ProfileRules } from './profiles.js'

type Json = Record<string, unknown>

const ref = (name: keyof typeof schemas): Json => ({ $ref: `#/components/schemas/${name}` })
const json = (schema: Json, description: string): Json => ({ description, content: { 'application/json': { schema } } })

/** The OpenAPI 3.1 document of a node, its components generated from the @weft/types schemas. */
export function openApiDocument(rules: ProfileRules, network: string, version: string): Json {
  const base = `/${rules.basePrefix}/0.0/${network}`
  const spec = rules.name === 'spec'
  const page = ref(spec ? 'BlockPage' : 'ChainwebBlockPage')
  const header = ref(spec ? 'BlockHeader' : 'ChainwebBlockHeader')
  const error: Json = spec
    ? { description: 'problem', content: { 'application/problem+json': { schema: ref('Problem') } } }
    : { description: 'plain text message', content: { 'text/plain': { schema: { type: 'string' } } } }
  const notFound: Json = spec ? error : json(ref('KeyNotFound'), 'key not found')
  const chain = { name: 'chain', in: 'path', required: true, schema: { type: 'integer', minimum: 0 } }
  const paging = ['limit', 'next', 'minheight', 'maxheight'].map((name) => ({
    name,
    in: 'query',
    required: false,
    schema: name === 'next' ? ref('CursorText') : ref('DigitsText'),
  }))
  const branchBody = { required: true, content: { 'application/json': { schema: ref('BranchBounds') } } }
  const batchBody = { required: true, content: { 'application/json': { schema: ref('PayloadBatch') } } }
  const cutHeight = { name: 'maxheight', in: 'query', required: false, schema: ref('DigitsText') }
  const stream: Json = {
    description: 'server-sent events `event:BlockHeader`',
    content: { 'text/event-stream': { schema: { type: 'string' } } },
  }
  // Components keep the TypeBox schemas as JSON Schema 2020-12, which OpenAPI 3.1 takes as is.
  const components = JSON.parse(JSON.stringify(schemas)) as Json
  return {
    openapi: '3.1.0',
    info: { title: 'Weft node', version, description: `Read-only chain query node, ${rules.name} profile, network ${network}.` },
    paths: {
      '/health-check': {
        get: { responses: { 200: { description: 'Health check OK.', content: { 'text/plain': { schema: { type: 'string' } } } } } },
      },
      '/info': { get: { responses: { 200: json(ref('NodeInfo'), 'node information') } } },
      [`${base}/cut`]: { get: { parameters: [cutHeight], responses: { 200: json(ref('Cut'), 'best head of every chain'), 400: error } } },
      [`${base}/chain/{chain}/block`]: {
        get: {
          parameters: [chain, ...paging],
          responses: { 200: json(page, 'ascending page of full blocks'), 400: error, 404: notFound, 406: error },
        },
      },
      [`${base}/chain/{chain}/block/branch`]: {
        post: {
          parameters: [chain, ...paging],
          requestBody: branchBody,
          responses: { 200: json(page, 'descending page of full blocks'), 400: error, 404: notFound, 406: error, 413: error, 415: error },
        },
      },
      [`${base}/chain/{chain}/header`]: {
        get: { parameters: [chain, ...paging], responses: { 200: json({ type: 'object' }, 'page of headers'), 404: notFound } },
      },
      [`${base}/chain/{chain}/header/branch`]: {
        post: {
          parameters: [chain, ...paging],
          requestBody: branchBody,
          responses: { 200: json({ type: 'object' }, 'page of headers'), 404: notFound },
        },
      },
      [`${base}/chain/{chain}/header/{hash}`]: {
        get: {
          parameters: [chain, { name: 'hash', in: 'path', required: true, schema: ref('BlockHash') }],
          responses: { 200: json(header, 'one header'), 400: error, 404: notFound },
        },
      },
      [`${base}/chain/{chain}/hash`]: {
        get: { parameters: [chain, ...paging], responses: { 200: json({ type: 'object' }, 'page of hashes'), 404: notFound } },
      },
      [`${base}/chain/{chain}/hash/branch`]: {
        post: {
          parameters: [chain, ...paging],
          requestBody: branchBody,
          responses: { 200: json({ type: 'object' }, 'page of hashes'), 404: notFound },
        },
      },
      [`${base}/chain/{chain}/payload/{payloadHash}`]: {
        get: { parameters: [chain], responses: { 200: json(ref('Payload'), 'payload'), 404: notFound } },
      },
      [`${base}/chain/{chain}/payload/{payloadHash}/outputs`]: {
        get: { parameters: [chain], responses: { 200: json(ref('PayloadWithOutputs'), 'payload with outputs'), 404: notFound } },
      },
      [`${base}/chain/{chain}/payload/batch`]: {
        post: {
          parameters: [chain],
          requestBody: batchBody,
          responses: { 200: json({ type: 'array', items: ref('Payload') }, 'payloads') },
        },
      },
      [`${base}/chain/{chain}/payload/outputs/batch`]: {
        post: {
          parameters: [chain],
          requestBody: batchBody,
          responses: { 200: json({ type: 'array', items: ref('PayloadWithOutputs') }, 'payloads with outputs') },
        },
      },
      [`${base}/header/updates`]: { get: { responses: { 200: stream } } },
      [`${base}/block/updates`]: { get: { responses: { 200: stream } } },
      '/openapi.json': { get: { responses: { 200: json({ type: 'object' }, 'this document') } } },
    },
    components: { schemas: components },
  }
}
