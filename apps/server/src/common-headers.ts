import type { Middleware } from 'koa'
import type { ProfileRules } from './profiles.js'

/** `x-peer-addr` text: `1.2.3.4:5678`, or `[::1]:5678` for IPv6. */
export function peerAddress(address: string | undefined, port: number | undefined): string {
  // A dual-stack socket reports IPv4 peers as ::ffff:a.b.c.d; the peer is the IPv4 address.
  const host = (address ?? 'unknown').replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1')
  return `${host.includes(':') ? `[${host}]` : host}:${port ?? 0}`
}

/** Sets the headers every response carries (peer address, clock, node version, CORS) before anything else runs. */
export function commonHeaders(rules: ProfileRules, nodeVersion: string): Middleware {
  const exposed = ['x-peer-addr', 'x-server-timestamp', rules.nodeVersionHeader].join(', ')
  return async (ctx, next) => {
    const socket = ctx.req.socket
    ctx.set('x-peer-addr', peerAddress(socket.remoteAddress, socket.remotePort))
    ctx.set('x-server-timestamp', String(Math.floor(Date.now() / 1000)))
    ctx.set(rules.nodeVersionHeader, nodeVersion)
    ctx.set('access-control-allow-origin', '*')
    ctx.set('access-control-expose-headers', exposed)
    await next()
  }
}
