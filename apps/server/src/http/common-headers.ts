import type { Socket } from 'node:net'
import type { Middleware } from 'koa'
import type { ProfileRules } from '../profile/profiles.js'

/** `x-peer-addr` text: `1.2.3.4:5678`, or `[::1]:5678` for IPv6. */
export function peerAddress(address: string | undefined, port: number | undefined): string {
  // A dual-stack socket reports IPv4 peers as ::ffff:a.b.c.d; the peer is the IPv4 address.
  const host = (address ?? 'unknown').replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1')
  return `${host.includes(':') ? `[${host}]` : host}:${port ?? 0}`
}

const exposed = ['x-peer-addr', 'x-server-timestamp']
const paging = ['chainweb-next', 'weft-incomplete-below']

/** The headers every answer on a connection carries (peer address, clock, node version, CORS), as name and value. */
export function commonHeaderEntries(
  rules: ProfileRules,
  nodeVersion: string,
  socket: Pick<Socket, 'remoteAddress' | 'remotePort'>,
): ReadonlyArray<readonly [string, string]> {
  return [
    ['x-peer-addr', peerAddress(socket.remoteAddress, socket.remotePort)],
    ['x-server-timestamp', String(Math.floor(Date.now() / 1000))],
    [rules.nodeVersionHeader, nodeVersion],
    ['access-control-allow-origin', '*'],
    // chainweb-data exposes its paging token to scripts: an explorer in a browser follows it.
    ['access-control-expose-headers', [...exposed, rules.nodeVersionHeader, 'etag', ...(rules.chainwebData ? paging : [])].join(', ')],
  ]
}

/** Sets the headers every response carries (peer address, clock, node version, CORS) before anything else runs. */
export function commonHeaders(rules: ProfileRules, nodeVersion: string): Middleware {
  return async (ctx, next) => {
    for (const [name, value] of commonHeaderEntries(rules, nodeVersion, ctx.req.socket)) ctx.set(name, value)
    await next()
  }
}
