import type { NodeInfo, Profile } from '@weft/types'
import { parseNodeUrl } from './paths.js'
import { nodeVersionOf, profileOfHeaders } from './profiles.js'
import { type ReadOptions, readInfo } from './reads.js'
import type { Send } from './transport.js'

/** What a node says it is, found by `describeNode`; what to refuse (another network, no profile) is the caller's. */
export interface NodeDescription {
  /** The URL as given, without trailing slashes. */
  readonly url: string
  /** Where `/info` and the other host-root endpoints are (a proxy's path prefix included). */
  readonly root: string
  /** The profile: as given, else the one the URL's base path names, else the version header's; undefined when none tells. */
  readonly profile: Profile | undefined
  /** The network `/info` names (its `nodeVersion`) when it is a string. */
  readonly infoNetwork: string | undefined
  /** The network the URL's base path names, when it has one. */
  readonly pathNetwork: string | undefined
  /** The node's version header value, when one came. */
  readonly nodeVersion: string | undefined
  /** The `/info` body as it came (checked when a checker was given). */
  readonly info: NodeInfo
}

/**
 * Finds what a node is: `GET {root}/info` (its `nodeVersion` names the network), the name of its
 * version header (`x-chainweb-node-version`: the chainweb profile, a chainweb-node or a Weft;
 * `x-chain-node-version`: a Weft in the spec profile), and the URL's path when it carries a base
 * path (`.../chainweb/0.0/mainnet01`). A profile given wins over the path, the path over the header.
 */
export async function describeNode(
  send: Send,
  url: string,
  options: ReadOptions & { readonly profile?: Profile | undefined } = {},
): Promise<NodeDescription> {
  const parsed = parseNodeUrl(url)
  const { info, header } = await readInfo(send, parsed.root, options)
  const network = (info as { nodeVersion?: unknown } | null)?.nodeVersion
  return {
    url: parsed.url,
    root: parsed.root,
    profile: options.profile ?? parsed.profile ?? profileOfHeaders(header),
    infoNetwork: typeof network === 'string' ? network : undefined,
    pathNetwork: parsed.network,
    nodeVersion: nodeVersionOf(header),
    info,
  }
}
