import { NodeInfo } from '@weft/types'
import { type ExactResponseCheck, exactResponseCheck, type ResponseCheck, responseCheck } from './response-check.js'
import { createTransport, type Transport } from './transport.js'
import type { ClientOptions, Target } from './types.js'

/** A transport that also knows the node's network and profile, and checks what it reads. */
export interface Connection extends Transport {
  /** Checks a response body against its schema when validation is on. */
  readonly check: ResponseCheck
  /** Parses a body holding headers with featureFlags exact, checked against its schema when validation is on. */
  readonly checkExact: ExactResponseCheck
  /** The network and profile spoken: as given, or found out from `/info` once. */
  target(): Promise<Target>
  /** GET /info, checked. */
  info(): Promise<NodeInfo>
  /** The URL prefix of the chain endpoints: `<root>/chain/0.0/<network>` (spec) or `<root>/chainweb/0.0/<network>`. */
  base(): Promise<string>
}

/** Creates the connection to the node of `options`. */
export function createConnection(options: ClientOptions): Connection {
  const transport = createTransport(options)
  const check = responseCheck(options.validate ?? false)
  let discovered: Promise<Target> | undefined

  async function info(): Promise<NodeInfo> {
    const answer = await transport.send('GET', `${transport.root}/info`)
    return check<NodeInfo>(NodeInfo, await answer.json(), 'GET /info')
  }

  function target(): Promise<Target> {
    if (options.network && options.profile) return Promise.resolve({ network: options.network, profile: options.profile })
    if (!discovered) {
      const discovery = (async () => {
        const answer = await transport.send('GET', `${transport.root}/info`)
        const body = check<NodeInfo>(NodeInfo, await answer.json(), 'GET /info')
        // Only the chainweb profile names its version header this way: the profile shows in every response.
        const profile = options.profile ?? (answer.response.headers.has('x-chainweb-node-version') ? 'chainweb' : 'spec')
        return { network: options.network ?? body.nodeVersion, profile }
      })()
      // A failed discovery is retried on the next call rather than remembered.
      discovery.catch(() => {
        if (discovered === discovery) discovered = undefined
      })
      discovered = discovery
    }
    return discovered
  }

  return {
    root: transport.root,
    send: transport.send,
    check,
    checkExact: exactResponseCheck(options.validate ?? false),
    target,
    info,
    async base() {
      const { network, profile } = await target()
      return `${transport.root}/${profile === 'chainweb' ? 'chainweb' : 'chain'}/0.0/${network}`
    },
  }
}
