import type { IncomingMessage, Server } from 'node:http'
import { isIPv6, type Socket } from 'node:net'
import type { Context, Middleware } from 'koa'
import { ClientRequestError, TooManyRequestsError } from '../errors.js'

/** The limits a node puts on its clients (see config/traffic-options.ts). */
export interface ClientLimitSettings {
  readonly maxConnections: number
  readonly maxPerClient: number
  readonly maxStreamsPerClient: number
  readonly trustProxy: boolean
}

/** Seconds a client over a limit is told to wait (`Retry-After`): requests end quickly, streams seldom. */
export const RETRY_AFTER = { connections: 1, requests: 1, streams: 5 } as const

// Connections past the cap that are still accepted, to be told 429, before node drops the rest unanswered.
const headroomOf = (max: number): number => Math.max(64, Math.ceil(max / 10))

/**
 * The address a client's limits count under: the peer's, or with `trustProxy` the last
 * X-Forwarded-For entry (the one the trusted proxy appended; earlier ones are the client's own
 * words). IPv4-mapped addresses count as IPv4, and an IPv6 address as its /64 network, which one
 * host commonly holds whole.
 */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? req.headers['x-forwarded-for'] : undefined
  const last = typeof forwarded === 'string' ? forwarded.slice(forwarded.lastIndexOf(',') + 1).trim() : ''
  const address = (last || req.socket.remoteAddress || 'unknown').replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1').slice(0, 64)
  return isIPv6(address) ? ipv6Network(address) : address
}

// The first four groups of an IPv6 address, `::` expanded: its /64 network.
function ipv6Network(address: string): string {
  const [bare = ''] = address.split('%')
  const [head = '', tail] = bare.split('::')
  const groups = head === '' ? [] : head.split(':')
  if (tail !== undefined) {
    const after = tail === '' ? [] : tail.split(':')
    groups.push(...Array<string>(Math.max(0, 8 - groups.length - after.length)).fill('0'), ...after)
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}

interface ClientCounts {
  requests: number
  streams: number
}

/**
 * Counts a server's connections and each client address's running requests and open event
 * streams, and refuses (429 with Retry-After) what passes the limits. Addresses are forgotten as
 * soon as they have nothing running, so the map holds only the clients of the moment.
 */
export class ClientLimits {
  readonly #settings: ClientLimitSettings
  readonly #clients = new Map<string, ClientCounts>()
  readonly #overCap = new WeakSet<Socket>()
  #connections = 0

  constructor(settings: ClientLimitSettings) {
    this.#settings = settings
  }

  /** Open connections of the server watched. */
  get connections(): number {
    return this.#connections
  }

  /** Client addresses with a request running or a stream open. */
  get clients(): number {
    return this.#clients.size
  }

  /**
   * Watches a server's connections: those past `maxConnections` are marked, and each request on them
   * is answered 429 and closes it; past a tenth more node drops new connections unanswered (a flood
   * would otherwise still cost a descriptor and an answer each).
   */
  watch(server: Server): void {
    const { maxConnections } = this.#settings
    server.maxConnections = maxConnections + headroomOf(maxConnections)
    server.on('connection', (socket: Socket) => {
      this.#connections += 1
      if (this.#connections > maxConnections) this.#overCap.add(socket)
      socket.once('close', () => {
        this.#connections -= 1
      })
    })
  }

  /** The middleware that counts and refuses; `isStream` tells an event-stream request from the others. */
  middleware(isStream: (ctx: Context) => boolean): Middleware {
    const { maxConnections, maxPerClient, maxStreamsPerClient, trustProxy } = this.#settings
    return async (ctx, next) => {
      // node's parser would answer a bare 400 to an HTTP/1.1 request without Host; here it gets the common headers.
      if (ctx.req.headers.host === undefined && ctx.req.httpVersion === '1.1') {
        ctx.set('connection', 'close')
        throw new ClientRequestError('MALFORMED_REQUEST', 'Expected a Host header in an HTTP/1.1 request, received none')
      }
      if (this.#overCap.has(ctx.req.socket)) {
        ctx.set('connection', 'close')
        throw new TooManyRequestsError(
          'TOO_MANY_CONNECTIONS',
          `Expected at most ${maxConnections} open connections to the node, received one more: retry in ${RETRY_AFTER.connections} s`,
          RETRY_AFTER.connections,
        )
      }
      const address = clientAddress(ctx.req, trustProxy)
      const counts = this.#clients.get(address) ?? { requests: 0, streams: 0 }
      if (isStream(ctx)) {
        if (counts.streams >= maxStreamsPerClient)
          throw new TooManyRequestsError(
            'TOO_MANY_STREAMS',
            `Expected at most ${maxStreamsPerClient} open event streams from ${address}, received one more: retry in ${RETRY_AFTER.streams} s`,
            RETRY_AFTER.streams,
          )
        this.#take(address, counts, 'streams')
        // A stream holds its place until its connection closes, long after this middleware returned.
        ctx.res.once('close', () => this.#give(address, counts, 'streams'))
        return next()
      }
      if (counts.requests >= maxPerClient)
        throw new TooManyRequestsError(
          'TOO_MANY_REQUESTS',
          `Expected at most ${maxPerClient} requests at once from ${address}, received one more: retry in ${RETRY_AFTER.requests} s`,
          RETRY_AFTER.requests,
        )
      this.#take(address, counts, 'requests')
      try {
        await next()
      } finally {
        this.#give(address, counts, 'requests')
      }
    }
  }

  #take(address: string, counts: ClientCounts, kind: keyof ClientCounts): void {
    counts[kind] += 1
    this.#clients.set(address, counts)
  }

  #give(address: string, counts: ClientCounts, kind: keyof ClientCounts): void {
    counts[kind] -= 1
    if (counts.requests === 0 && counts.streams === 0) this.#clients.delete(address)
  }
}
