/** The wire profile: `spec` (the service document's names) or `chainweb` (the real network's). */
export type ProfileName = 'spec' | 'chainweb'

/** Every rule in which the two profiles differ: CONTRACT.md's profile table, one field per row. */
export interface ProfileRules {
  readonly name: ProfileName
  /** First path segment of `{base}`: `/<prefix>/0.0/<network>`. */
  readonly basePrefix: 'chain' | 'chainweb'
  /** Key of the network name in header JSON. */
  readonly versionKey: 'chainVersion' | 'chainwebVersion'
  /** Response header carrying the node's version. */
  readonly nodeVersionHeader: 'x-chain-node-version' | 'x-chainweb-node-version'
  /** `next` of GET block's last non-empty page. */
  readonly lastPageNext: 'null' | 'exclusive-last'
  /** A query matching no block (GET block, POST branch). */
  readonly noMatch: 'problem-404' | 'empty-200'
  /** Status of a malformed `next` or `maxheight`. */
  readonly malformedCursorStatus: 400 | 404
  /** `maxheight` < `minheight`. */
  readonly maxBelowMin: 'problem-404' | 'empty-200'
  /** Body of a 404 for an unknown `next` hash or upper bound. */
  readonly keyNotFoundBody: 'problem' | 'key-reason'
  /** Body of other errors. */
  readonly errorBody: 'problem' | 'text'
  /** Unit of `nodeBlockDelay` in /info, in microseconds per unit. */
  readonly blockDelayMicros: 1_000_000 | 1
  /** Which headers the update streams carry. */
  readonly headerEvents: 'inserted' | 'best'
}

/** CONTRACT.md's profile table as data. */
export const profiles: Readonly<Record<ProfileName, ProfileRules>> = {
  spec: {
    name: 'spec',
    basePrefix: 'chain',
    versionKey: 'chainVersion',
    nodeVersionHeader: 'x-chain-node-version',
    lastPageNext: 'null',
    noMatch: 'problem-404',
    malformedCursorStatus: 404,
    maxBelowMin: 'problem-404',
    keyNotFoundBody: 'problem',
    errorBody: 'problem',
    blockDelayMicros: 1_000_000,
    headerEvents: 'inserted',
  },
  chainweb: {
    name: 'chainweb',
    basePrefix: 'chainweb',
    versionKey: 'chainwebVersion',
    nodeVersionHeader: 'x-chainweb-node-version',
    lastPageNext: 'exclusive-last',
    noMatch: 'empty-200',
    malformedCursorStatus: 400,
    maxBelowMin: 'empty-200',
    keyNotFoundBody: 'key-reason',
    errorBody: 'text',
    blockDelayMicros: 1,
    headerEvents: 'best',
  },
}

/** `{base}` of a profile and network, e.g. `/chain/0.0/development`. */
export function basePath(rules: ProfileRules, network: string): string {
  return `/${rules.basePrefix}/0.0/${network}`
}
