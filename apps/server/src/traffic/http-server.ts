import { createServer, type RequestListener, type Server } from 'node:http'
import type { Logger } from 'pino'
import type { ServerConfig } from '../config/config.js'
import type { ProfileRules } from '../profile/profiles.js'
import type { ClientLimits } from './client-limits.js'
import { answerClientErrors, answerConnect } from './socket-answers.js'

const ms = (seconds: number): number => Math.max(1, Math.round(seconds * 1000))

/** The settings node's HTTP server is made with: its timeouts, in seconds. */
export type HttpTimeouts = Pick<ServerConfig, 'headersTimeout' | 'requestTimeout' | 'keepAliveTimeout'>

/** What node's HTTP server of a node touches: its timeouts, the client limits, and what its own answers are written with. */
export interface HttpServerParts {
  readonly timeouts: HttpTimeouts
  readonly limits: ClientLimits
  readonly rules: ProfileRules
  readonly nodeVersion: string
}

/** The timeouts of node's HTTP server, as `createServer` options. */
export function httpServerOptions(config: HttpTimeouts) {
  const headersTimeout = ms(config.headersTimeout)
  const requestTimeout = ms(config.requestTimeout)
  return {
    headersTimeout,
    requestTimeout,
    // node looks for late requests on this period, 30 s by default: a slowloris then held on for
    // the timeout and up to 30 s more. A tenth of the headers timeout, from 50 ms to 1 s.
    connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.round(headersTimeout / 10))),
    // A request without Host is refused by the admission middleware instead, with the common headers.
    requireHostHeader: false,
  }
}

/**
 * node's HTTP server for a node: its timeouts (headers, whole request, kept-alive idle), its
 * connections watched by the client limits, and what node's parser refuses or cuts answered with
 * the common headers (traffic/socket-answers.ts).
 */
export function createHttpServer(parts: HttpServerParts, logger: Logger, listener: RequestListener): Server {
  const { rules, nodeVersion } = parts
  const server = createServer(httpServerOptions(parts.timeouts), listener)
  server.keepAliveTimeout = ms(parts.timeouts.keepAliveTimeout)
  parts.limits.watch(server)
  server.on('clientError', answerClientErrors(rules, nodeVersion, logger))
  server.on('connect', answerConnect(rules, nodeVersion))
  // An expectation other than 100-continue may be ignored (RFC 9110, 10.1.1): the request is answered
  // as any other, with the common headers, rather than node's bare 417.
  server.on('checkExpectation', (req, res) => server.emit('request', req, res))
  server.on('drop', (dropped) => logger.debug({ peer: dropped?.remoteAddress }, 'dropped a connection over the connection cap'))
  // Once listening, a failure to accept (out of file descriptors) is an 'error' event: without a
  // listener it would end the process. libuv keeps accepting once descriptors are free again.
  server.once('listening', () => server.on('error', (error) => logger.error({ err: error }, 'accepting a connection failed')))
  return server
}
