import type { Profile } from '@weft/types'

/** What a client sees of a profile: where its endpoints are, how a node names itself, how pages end. */
export interface ProfileWire {
  readonly name: Profile
  /** First path segment of `{base}`: `/<prefix>/0.0/<network>`. */
  readonly basePrefix: 'chain' | 'chainweb'
  /** Response header carrying the node's version: its name tells the profile. */
  readonly nodeVersionHeader: 'x-chain-node-version' | 'x-chainweb-node-version'
  /** `next` of GET block's last non-empty page: `null`, or `exclusive:<hash of its last block>`. */
  readonly lastPageNext: 'null' | 'exclusive-last'
  /** A query matching no block (GET block, POST branch): a 404 problem `NO_MATCHING_BLOCKS`, or a 200 empty page. */
  readonly noMatch: 'problem-404' | 'empty-200'
}

/** The client-visible rows of the contract's profile table, one field per row. */
export const wireProfiles: Readonly<Record<Profile, ProfileWire>> = {
  spec: { name: 'spec', basePrefix: 'chain', nodeVersionHeader: 'x-chain-node-version', lastPageNext: 'null', noMatch: 'problem-404' },
  chainweb: {
    name: 'chainweb',
    basePrefix: 'chainweb',
    nodeVersionHeader: 'x-chainweb-node-version',
    lastPageNext: 'exclusive-last',
    noMatch: 'empty-200',
  },
}

/** `{base}` of a profile and network, e.g. `/chain/0.0/development` or `/chainweb/0.0/mainnet01`. */
export function basePath(profile: Profile, network: string): string {
  return `/${wireProfiles[profile].basePrefix}/0.0/${network}`
}

/** A response's header by name (lower case); undefined when absent. */
export type HeaderReader = (name: string) => string | undefined

/**
 * The profile a response shows by the name of its version header: `x-chainweb-node-version` only
 * in the chainweb profile (a chainweb-node, or a Weft speaking it), `x-chain-node-version` only in
 * the spec profile; undefined when neither came (a proxy that strips them, or not a node).
 */
export function profileOfHeaders(header: HeaderReader): Profile | undefined {
  if (header(wireProfiles.chainweb.nodeVersionHeader) !== undefined) return 'chainweb'
  if (header(wireProfiles.spec.nodeVersionHeader) !== undefined) return 'spec'
  return undefined
}

/** The node's version string from whichever version header came. */
export function nodeVersionOf(header: HeaderReader): string | undefined {
  return header(wireProfiles.chainweb.nodeVersionHeader) ?? header(wireProfiles.spec.nodeVersionHeader)
}
