import type { NetworkName, Profile } from '@weft/types'
import { networkNames } from '@weft/types'
import { InvalidIngestOptionError, UpstreamRefusedError, UpstreamResponseError } from './errors.js'
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
export interface ParsedUpstreamUrl {
  readonly url: string
  readonly root: string
  readonly profile: Profile | undefined
  readonly network: string | undefined
}

const basePathPattern = /^(.*?)\/(chain|chainweb)\/0\.0\/([^/]+)$/

/** Splits an upstream URL (`http://host:1848`, `http://host/chainweb/0.0/mainnet01`, a proxy's prefix allowed) into its parts. */
export function parseUpstreamUrl(text: string): ParsedUpstreamUrl {
  if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol)) {
    throw new InvalidIngestOptionError('an upstream', 'an http or https URL', text)
  }
  const parsed = new URL(text)
  if (parsed.search !== '' || parsed.hash !== '') throw new InvalidIngestOptionError('an upstream', 'a URL without query or fragment', text)
  const url = text.replace(/\/+$/, '')
  const path = parsed.pathname.replace(/\/+$/, '')
  const match = basePathPattern.exec(path)
  if (match === null) return { url, root: `${parsed.origin}${path}`, profile: undefined, network: undefined }
  return {
    url,
    root: `${parsed.origin}${match[1]}`,
    profile: match[2] === 'chainweb' ? 'chainweb' : 'spec',
    network: decodeURIComponent(match[3]!),
  }
}

/** What discovery checks an upstream against. */
export interface DiscoveryOptions {
  /** The network this node serves: an upstream of another network is refused. Default: the upstream's own. */
  readonly network?: NetworkName | undefined
  /** The upstream's profile when known; default: from its version header, or its URL's path. */
  readonly profile?: Profile | undefined
  readonly signal?: AbortSignal | undefined
  /** The client to ask with; default: one of its own (30 s timeout), closed afterwards. */
  readonly http?: HttpClient | undefined
}

/**
 * Finds an upstream's kind and network: `GET /info` (`nodeVersion`), the version header's name
 * (`x-chainweb-node-version`: the chainweb profile, a chainweb-node or a Weft; `x-chain-node-version`:
 * a Weft in the spec profile) and the URL's path when it carries one. Refuses an upstream whose
 * network differs from `options.network`, or one that is recognisably neither.
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
  const answer = await http.ok(`${parsed.root}/info`, { signal: options.signal })
  let info: { nodeVersion?: unknown }
  try {
    info = JSON.parse(answer.body.toString('utf8')) as { nodeVersion?: unknown }
  } catch (error) {
    throw new UpstreamResponseError(`Expected GET ${parsed.root}/info to answer JSON, received ${answer.body.length} bytes that are not`, {
      cause: error,
    })
  }
  const network = info?.nodeVersion
  if (typeof network !== 'string' || !(networkNames as readonly string[]).includes(network)) {
    throw new UpstreamRefusedError(
      'UPSTREAM_UNRECOGNISED',
      parsed.url,
      `Expected the nodeVersion of ${parsed.root}/info to name a network Weft knows (${networkNames.join(', ')}), received ${JSON.stringify(network)}`,
    )
  }
  if (expected !== undefined && network !== expected) throw mismatch(parsed.url, network, expected)
  if (parsed.network !== undefined && parsed.network !== network) throw pathMismatch(parsed.url, parsed.network, network)
  const chainweb = answer.headers['x-chainweb-node-version']
  const spec = answer.headers['x-chain-node-version']
  const headerProfile: Profile | undefined = chainweb !== undefined ? 'chainweb' : spec !== undefined ? 'spec' : undefined
  const profile = options.profile ?? parsed.profile ?? headerProfile
  if (profile === undefined) {
    throw new UpstreamRefusedError(
      'UPSTREAM_UNRECOGNISED',
      parsed.url,
      `Expected ${parsed.root}/info to carry an x-chainweb-node-version or x-chain-node-version header (a chainweb-node or a Weft), received neither; give the base path in the URL (.../chainweb/0.0/${network}) to say which API it serves`,
    )
  }
  const version = chainweb ?? spec
  return {
    url: parsed.url,
    root: parsed.root,
    base: `${parsed.root}/${profile === 'chainweb' ? 'chainweb' : 'chain'}/0.0/${network}`,
    network: network as NetworkName,
    profile,
    nodeVersion: Array.isArray(version) ? version[0] : version,
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
