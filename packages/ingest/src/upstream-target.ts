import { basePath, describeNode, type NodeUrl, nodeUrlProblem, parseNodeUrl } from '@weft/api'
import type { NetworkName, Profile } from '@weft/types'
import { networkNames } from '@weft/types'
import { InvalidIngestOptionError, UpstreamRefusedError } from './errors.js'
import { HttpClient } from './http-client.js'

/** What an upstream is and where its endpoints are: found by `discoverUpstream`. */
export interface UpstreamTarget {
  /** The URL as given, without trailing slashes. */
  readonly url: string
  /** Where `/info` and the other host-root endpoints are (a proxy's path prefix included). */
  readonly root: string
  /** `{root}/chain/0.0/{network}` (spec profile) or `{root}/chainweb/0.0/{network}` (chainweb profile: a chainweb-node or a Weft). */
  readonly base: string
  readonly network: NetworkName
  readonly profile: Profile
  /** The node's version header value (`x-chainweb-node-version` or `x-chain-node-version`), when sent. */
  readonly nodeVersion: string | undefined
}

/** What an upstream URL says by itself: its root, and the profile and network when its path carries a base path. */
export type ParsedUpstreamUrl = NodeUrl

/** Splits an upstream URL (`http://host:1848`, `http://host/chainweb/0.0/mainnet01`, a proxy's prefix allowed) into its parts. */
export function parseUpstreamUrl(text: string): ParsedUpstreamUrl {
  const problem = nodeUrlProblem(text)
  if (problem !== undefined) throw new InvalidIngestOptionError('an upstream', problem, text)
  return parseNodeUrl(text)
}

/** What discovery checks an upstream against. */
export interface DiscoveryOptions {
  /** The network this node serves: an upstream of another network is refused. Default: the upstream's own. */
  readonly network?: NetworkName | undefined
  /** The upstream's profile when known; default: from its URL's path, or its version header. */
  readonly profile?: Profile | undefined
  readonly signal?: AbortSignal | undefined
  /** The client to ask with; default: one of its own (30 s timeout), closed afterwards. */
  readonly http?: HttpClient | undefined
}

/**
 * Finds an upstream's kind and network with `@weft/api`'s `describeNode` (`GET /info`, the version
 * header's name, the URL's base path), and refuses an upstream whose network differs from
 * `options.network` or from its path's, or one that is recognisably neither a chainweb-node nor a Weft.
 */
export async function discoverUpstream(text: string, options: DiscoveryOptions = {}): Promise<UpstreamTarget> {
  if (options.http !== undefined) return discover(options.http, text, options)
  const http = new HttpClient({ timeoutMs: 30_000, maxSockets: 1 })
  try {
    return await discover(http, text, options)
  } finally {
    http.close()
  }
}

async function discover(http: HttpClient, text: string, options: DiscoveryOptions): Promise<UpstreamTarget> {
  const parsed = parseUpstreamUrl(text)
  const expected = options.network
  if (parsed.network !== undefined && expected !== undefined && parsed.network !== expected)
    throw mismatch(parsed.url, parsed.network, expected)
  const node = await describeNode(http.send, text, { profile: options.profile, signal: options.signal })
  const network = node.infoNetwork
  if (network === undefined || !(networkNames as readonly string[]).includes(network)) {
    throw new UpstreamRefusedError(
      'UPSTREAM_UNRECOGNISED',
      parsed.url,
      `Expected the nodeVersion of ${parsed.root}/info to name a network Weft knows (${networkNames.join(', ')}), received ${JSON.stringify((node.info as { nodeVersion?: unknown } | null)?.nodeVersion)}`,
    )
  }
  if (expected !== undefined && network !== expected) throw mismatch(parsed.url, network, expected)
  if (parsed.network !== undefined && parsed.network !== network) throw pathMismatch(parsed.url, parsed.network, network)
  if (node.profile === undefined) {
    throw new UpstreamRefusedError(
      'UPSTREAM_UNRECOGNISED',
      parsed.url,
      `Expected ${parsed.root}/info to carry an x-chainweb-node-version or x-chain-node-version header (a chainweb-node or a Weft), received neither; give the base path in the URL (.../chainweb/0.0/${network}) to say which API it serves`,
    )
  }
  return {
    url: parsed.url,
    root: parsed.root,
    base: `${parsed.root}${basePath(node.profile, network)}`,
    network: network as NetworkName,
    profile: node.profile,
    nodeVersion: node.nodeVersion,
  }
}

function mismatch(url: string, serves: string, expected: string): UpstreamRefusedError {
  return new UpstreamRefusedError(
    'UPSTREAM_NETWORK_MISMATCH',
    url,
    `Expected upstream ${url} to serve ${expected}, the network of this node, but it serves ${serves}: start the node with --network ${serves}, or choose an upstream of ${expected}`,
  )
}

function pathMismatch(url: string, named: string, serves: string): UpstreamRefusedError {
  return new UpstreamRefusedError(
    'UPSTREAM_NETWORK_MISMATCH',
    url,
    `Expected upstream ${url} to serve ${named}, the network its path names, but its /info says ${serves}: fix the URL`,
  )
}
