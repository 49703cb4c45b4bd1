import {
  basePath,
  type ChainTarget,
  createFetchTransport,
  describeNode,
  type FetchTransport,
  InvalidResponseError,
  parseNodeUrl,
  type ReadOptions,
  type ResponseChecker,
  readInfo,
} from '@weft/api'
import type { NodeInfo } from '@weft/types'
import { InvalidOptionError } from './errors.js'
import type { ClientOptions, Target } from './types.js'

/** The transport to one node, what the node is, and how its answers are checked. */
export interface Connection {
  /** The node's root URL (where `/info` is), without a trailing slash. */
  readonly root: string
  readonly transport: FetchTransport
  /** The network and profile spoken: as given, else from the URL's base path, else found out from `/info` once. */
  target(): Promise<Target>
  /** GET /info, checked when validation is on. */
  info(): Promise<NodeInfo>
  /** Where the chain endpoints are (`<root>/chain/0.0/<network>` or `<root>/chainweb/0.0/<network>`), and the profile. */
  chain(): Promise<ChainTarget>
  /** The options of a read: the signal, and the schema checker when validation is on. */
  readOptions(signal?: AbortSignal): Promise<ReadOptions>
}

/** Creates the connection to the node of `options`; nothing is sent until a method needs it. */
export function createConnection(options: ClientOptions): Connection {
  const transport = createFetchTransport({ fetch: options.fetch, headers: options.headers })
  const url = parseNodeUrl(options.url)
  const given = { network: options.network ?? url.network, profile: options.profile ?? url.profile }
  let checker: Promise<ResponseChecker | undefined> | undefined
  let discovered: Promise<Target> | undefined

  // The schemas and TypeBox load only when asked for: a client that does not validate needs neither installed.
  function checkerOf(): Promise<ResponseChecker | undefined> {
    if (options.validate !== true) return Promise.resolve(undefined)
    checker ??= import('@weft/api/check').then(
      (check) => check.responseChecker,
      (error: unknown) => {
        throw new InvalidOptionError('validate', 'false, or @weft/types installed beside @weft/client (npm i @weft/types)', true, {
          cause: error,
        })
      },
    )
    return checker
  }

  async function discover(): Promise<Target> {
    const node = await describeNode(transport.send, options.url, { profile: given.profile, checker: await checkerOf() })
    const network = given.network ?? node.infoNetwork
    if (network === undefined) {
      const named = (node.info as { nodeVersion?: unknown } | null)?.nodeVersion
      throw new InvalidResponseError(`GET ${url.root}/info to name the node's network (nodeVersion)`, JSON.stringify(named) ?? 'none')
    }
    // A node without a version header (a proxy that strips it) is taken to speak the spec profile.
    return { network: network as Target['network'], profile: node.profile ?? 'spec' }
  }

  function target(): Promise<Target> {
    if (given.network !== undefined && given.profile !== undefined)
      return Promise.resolve({ network: given.network as Target['network'], profile: given.profile })
    if (!discovered) {
      const discovery = discover()
      // A failed discovery is tried again on the next call rather than remembered.
      discovery.catch(() => {
        if (discovered === discovery) discovered = undefined
      })
      discovered = discovery
    }
    return discovered
  }

  return {
    root: url.root,
    transport,
    target,
    async info() {
      return (await readInfo(transport.send, url.root, { checker: await checkerOf() })).info
    },
    async chain() {
      const { network, profile } = await target()
      return { base: `${url.root}${basePath(profile, network)}`, profile }
    },
    async readOptions(signal) {
      return { signal, checker: await checkerOf() }
    },
  }
}
