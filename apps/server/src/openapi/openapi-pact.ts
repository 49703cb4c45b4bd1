import type { AnsweredCode } from '../profile/error-table.js'
import type { OperationSpec } from './openapi-operations.js'

// chainweb-node's read-only Pact service (routes/pact-routes.ts): its operations, and the endpoints
// Weft refuses (their schemas: openapi-pact-schemas.ts). Served, and documented, in the chainweb profile only.

const json = 'application/json'
const bodyCodes: readonly AnsweredCode[] = ['NOT_ACCEPTABLE', 'NOT_FOUND', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE', 'INVALID_BODY']
const indexCodes: readonly AnsweredCode[] = ['INDEX_DISABLED', 'INDEX_CATCHING_UP']

const refused = (path: string, operationId: string, summary: string): OperationSpec => ({
  path: `{base}/chain/{chain}/${path}`,
  method: 'post',
  operationId,
  summary: `${summary}: refused, this node holds no Pact state (\`NO_PACT_STATE\`, 501)`,
  tag: 'pact',
  parameters: ['chain'],
  codes: ['NOT_ACCEPTABLE', 'NOT_FOUND', 'NO_PACT_STATE'],
})

/** The operations of the Pact service, in the order of the document. */
export const pactOperations: readonly OperationSpec[] = [
  {
    path: '{base}/chain/{chain}/pact/api/v1/poll',
    method: 'post',
    operationId: 'pactPoll',
    summary: 'Command results of request keys on the winning branch (chainweb-node 3.2 `/poll`)',
    tag: 'pact',
    parameters: ['chain', 'confirmationDepth'],
    body: { schema: 'PollRequest', example: 'pollRequest' },
    ok: {
      description: 'the results found, keyed by request key, each with its block in `metaData`; keys not found are left out',
      representations: [{ mediaType: json, schema: 'PollResponse', example: 'pollResponse' }],
    },
    codes: [...bodyCodes, 'INVALID_QUERY', ...indexCodes],
  },
  {
    path: '{base}/chain/{chain}/pact/api/v1/listen',
    method: 'post',
    operationId: 'pactListen',
    summary: 'The command result of one request key, once it is on the winning branch (chainweb-node 3.2 `/listen`)',
    tag: 'pact',
    parameters: ['chain'],
    body: { schema: 'ListenRequest', example: 'listenRequest' },
    ok: {
      description: 'the command result, as soon as a block on the winning branch holds the key (waits up to 180 s, then 504)',
      representations: [{ mediaType: json, schema: 'CommandResult', example: 'commandResult' }],
    },
    codes: [...bodyCodes, ...indexCodes, 'LISTEN_TIMEOUT'],
  },
  refused('pact/api/v1/send', 'pactSend', 'Submit commands'),
  refused('pact/api/v1/local', 'pactLocal', 'Run a command locally'),
  refused('pact/spv', 'pactSpv', 'SPV proof of a transaction output'),
  refused('pact/spv2', 'pactSpv2', 'SPV proof, version 2'),
  refused('pact/spv/eth', 'pactEthSpv', 'SPV proof of an Ethereum receipt'),
]
