import { cacheControlOf } from '../http/caching.js'

type Json = Record<string, unknown>

const immutable = `\`${cacheControlOf.immutable}\``
const recent = `\`${cacheControlOf.recent}\``
const page =
  `${immutable} when every height the page depends on (up to the block after its last item, or \`maxheight\` on a last page) ` +
  `lies \`--final-depth\` or more below every head of the cut; ${recent} otherwise`
const branch = `${immutable} when every bound (and the cursor) is stored: the ancestors of a block never change; ${recent} while a lower bound is unknown`
const byHash = `${immutable}: named by its hash, it never changes`
const batch = `${immutable} when every hash asked for is stored; ${recent} while one is left out`

/** The `Cache-Control` of each operation's 200 answer, in words (errors are always `no-store`). */
const cacheControls: Readonly<Record<string, string>> = {
  healthCheck: "`no-store`: liveness is the node's own answer",
  getInfo: recent,
  getCut: '`no-cache`: it moves with every block; revalidate by ETag',
  getBlocks: page,
  getBlockBranch: branch,
  getHeaders: page,
  getHeaderBranch: branch,
  getHeader: byHash,
  getHashes: page,
  getHashBranch: branch,
  getPayload: byHash,
  getPayloadWithOutputs: byHash,
  getPayloadBatch: batch,
  getPayloadWithOutputsBatch: batch,
  streamHeaderUpdates: '`no-cache`',
  streamBlockUpdates: '`no-cache`',
  getOpenApi: recent,
  getMetrics: '`no-store`',
  getReady: '`no-store`',
  getStatus: '`no-store`',
  getStatusPage: '`no-store`',
}

const streams = new Set(['streamHeaderUpdates', 'streamBlockUpdates'])

/**
 * The caching headers of an operation's 200 answer (`ETag`, `Cache-Control`, and `Vary` when its
 * representation depends on Accept), and its 304 answer when it is a GET: what `http/caching.ts` does.
 */
export function cachingOf(operationId: string, method: string, variesOnAccept: boolean): { headers: Json; notModified: Json } {
  const stream = streams.has(operationId)
  const headers: Json = {
    ...(stream
      ? {}
      : {
          ETag: {
            description: 'strong entity tag: the SHA-256 of the body sent, unpadded base64url, quoted',
            schema: { type: 'string' },
          },
        }),
    'Cache-Control': { description: cacheControls[operationId] ?? '`no-cache`', schema: { type: 'string' } },
    ...(variesOnAccept ? { Vary: { description: '`Accept`: the representation depends on it', schema: { type: 'string' } } } : {}),
  }
  if (stream || method !== 'get') return { headers, notModified: {} }
  return {
    headers,
    notModified: {
      304: {
        description:
          "Not Modified: `If-None-Match` matched the answer's ETag (`*`, or a list compared weakly, RFC 9110); no body, the same ETag, Cache-Control and Vary",
        headers,
      },
    },
  }
}
