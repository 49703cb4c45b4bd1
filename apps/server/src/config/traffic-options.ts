import { number, switchKind } from './config-kinds.js'

// Entries of the settings table (config-options.ts spreads them in) about hostile and heavy
// traffic: timeouts, limits, the read slots and durability. Kept here so that they read as one
// subject; they are plain entries of the table's shape.

const seconds = number('a positive number of seconds, at most a day', (value) => value > 0 && value <= 86_400, '<seconds>')
const count = number('a positive integer', (value) => Number.isSafeInteger(value) && value > 0)

/** The traffic settings: timeouts of node's HTTP server, connection and per-client limits, read slots, fsync. */
export const trafficOptions = {
  headersTimeout: {
    flag: 'headers-timeout',
    env: 'WEFT_HEADERS_TIMEOUT',
    kind: seconds,
    default: 10,
    help: 'seconds a client has to send the headers of a request, else 408 and the connection is closed',
  },
  requestTimeout: {
    flag: 'request-timeout',
    env: 'WEFT_REQUEST_TIMEOUT',
    kind: seconds,
    default: 30,
    help: 'seconds a client has to send a whole request, body included, else 408 and the connection is closed',
  },
  keepAliveTimeout: {
    flag: 'keep-alive-timeout',
    env: 'WEFT_KEEP_ALIVE_TIMEOUT',
    kind: seconds,
    default: 5,
    help: 'seconds an idle kept-alive connection stays open between requests',
  },
  maxConnections: {
    flag: 'max-connections',
    env: 'WEFT_MAX_CONNECTIONS',
    kind: count,
    default: 10_000,
    help: 'open connections at most; requests on connections past it get 429 and their connection is closed',
  },
  maxPerClient: {
    flag: 'max-per-client',
    env: 'WEFT_MAX_PER_CLIENT',
    kind: count,
    default: 256,
    help: 'requests one client address may have running at once (event streams aside), else 429',
  },
  maxStreamsPerClient: {
    flag: 'max-streams-per-client',
    env: 'WEFT_MAX_STREAMS_PER_CLIENT',
    kind: count,
    default: 2048,
    help: 'event streams one client address may hold open at once, else 429',
  },
  trustProxy: {
    flag: 'trust-proxy',
    env: 'WEFT_TRUST_PROXY',
    kind: switchKind(),
    default: false,
    help: "behind a proxy: a client's address for the limits is the last X-Forwarded-For entry",
  },
  concurrentReads: {
    flag: 'concurrent-reads',
    env: 'WEFT_CONCURRENT_READS',
    kind: count,
    // The slots keep writes from waiting behind every read at every step. Under 100 connections of
    // reads on two cores the producer kept 0.45 of its idle rate with 8 slots, 0.52-0.63 with 4 (the
    // event loop is the bottleneck, not the thread pool); reads lost ~10%. A node that writes nothing
    // has no write to protect: 16 slots only bound the pages in construction, and its pages ran at
    // 0.91-0.93 of a bare server's against 0.83-0.87 with 4 (pnpm bench's block-pages figure).
    defaultFrom: (resolved: Readonly<Record<string, unknown>>): number =>
      resolved.devnet === true || (resolved.upstream as readonly string[]).length > 0 ? 4 : 16,
    defaultText: '4 on a node that writes (devnet producer or --upstream), else 16',
    help: 'chain reads (pages, branches, payloads, cut) run at once at most; the others wait their turn',
  },
  syncWrites: {
    flag: 'sync-writes',
    env: 'WEFT_SYNC_WRITES',
    kind: switchKind(),
    default: false,
    help: 'flush every write of blocks to the disk (fsync) before it counts: no loss on a power cut, slower writes',
  },
  maxPendingPayloads: {
    kind: count,
    // Above an honest burst: a reorg 1,000 deep (chainweb profile), a window of 2,048 copied blocks.
    default: 8192,
    help: '/block/updates events waiting for their payload read at most, past which the stream subscribers are cut',
  },
} as const
