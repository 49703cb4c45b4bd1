import type { OperationSpec } from './openapi-operations.js'

const json = 'application/json'
const text = { type: 'string' }

/** The operator's operations, at the host root, after the wire contract's in the document. */
export const operatorOperations: readonly OperationSpec[] = [
  {
    path: '/openapi.json',
    method: 'get',
    operationId: 'getOpenApi',
    summary: 'This document: the OpenAPI 3.1 description of the profile being served',
    tag: 'operator',
    parameters: [],
    ok: {
      description: 'this document',
      representations: [{ mediaType: json, schema: 'OpenApiDocument' }],
    },
    codes: ['NOT_ACCEPTABLE'],
  },
  {
    path: '/metrics',
    method: 'get',
    operationId: 'getMetrics',
    summary: 'Prometheus metrics, text format 0.0.4 (Accept ignored)',
    tag: 'operator',
    parameters: [],
    ok: { description: 'metrics', representations: [{ mediaType: 'text/plain;version=0.0.4', schema: text }] },
    codes: [],
  },
  {
    path: '/ready',
    method: 'get',
    operationId: 'getReady',
    summary: "Readiness for a load balancer: caught up with the upstream's cut within --max-lag and heard from lately (Accept ignored)",
    tag: 'operator',
    parameters: [],
    ok: { description: 'fit to serve', representations: [{ mediaType: json, schema: 'ReadyBody' }] },
    unavailable: {
      description: 'not fit to serve: behind, stale, failed, its disk full or a table file damaged (the body says which)',
      representations: [{ mediaType: json, schema: 'ReadyBody' }],
    },
    codes: [],
  },
  {
    path: '/status',
    method: 'get',
    operationId: 'getStatus',
    summary: "The status page's figures: heads, cut height, blocks per second, recent reorgs",
    tag: 'operator',
    parameters: [],
    ok: {
      description: 'the node status',
      representations: [{ mediaType: json, schema: 'NodeStatus' }],
    },
    codes: ['NOT_ACCEPTABLE'],
  },
  {
    path: '/search',
    method: 'get',
    operationId: 'search',
    summary: "The status page's search box: a request key, a block hash, a height or an account, answered from the store and its index",
    description:
      'A 43-character hash is looked up as a request key (every copy) and as a block hash; digits are a height on every chain (at most 10 blocks a chain); any other text is an account, answered with its newest 20 coin transfers (`moreTransfers` says whether there are more). Every block and copy says whether it is on its chain\'s winning branch and its depth. With `--no-index` (`index: "disabled"`) no transaction or transfer is answered.',
    tag: 'operator',
    parameters: [],
    ownParameters: [
      {
        name: 'q',
        in: 'query',
        required: true,
        description: 'a request key, a block hash, a height or an account name',
        schema: { type: 'string', minLength: 1, maxLength: 256 },
      },
    ],
    ok: { description: 'what was found (possibly nothing)', representations: [{ mediaType: json, schema: 'SearchAnswer' }] },
    codes: ['NOT_ACCEPTABLE', 'INVALID_QUERY'],
  },
  {
    path: '/',
    method: 'get',
    operationId: 'getStatusPage',
    summary: 'The status page: the node live, readable without JavaScript (Accept ignored)',
    tag: 'operator',
    parameters: [],
    ok: { description: 'an HTML page', representations: [{ mediaType: 'text/html', schema: text }] },
    codes: [],
  },
]
