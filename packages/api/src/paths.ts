import type { Profile } from '@weft/types'
import { wireProfiles } from './profiles.js'

/** Paging parameters of GET block and POST branch; `limit` is the page size asked of the server. */
export interface PageQuery {
  limit?: number | undefined
  next?: string | null | undefined
  minheight?: number | undefined
  maxheight?: number | undefined
}

/** Renders a page query as a URL query string, `?limit=..&next=..&minheight=..&maxheight=..` with only the parameters given (empty when none). */
export function pageQueryString(query: PageQuery): string {
  const parameters = new URLSearchParams()
  if (query.limit !== undefined) parameters.set('limit', String(query.limit))
  if (query.next !== undefined && query.next !== null) parameters.set('next', query.next)
  if (query.minheight !== undefined) parameters.set('minheight', String(query.minheight))
  if (query.maxheight !== undefined) parameters.set('maxheight', String(query.maxheight))
  const text = parameters.toString()
  return text === '' ? '' : `?${text}`
}

/** The endpoints of `{base}` (a path, or a URL that ends with one), each a function of its parameters. */
export const chainPaths = {
  /** GET: the node's cut; `maxheight` limits it to a cut height. */
  cut: (base: string, maxheight?: number): string => `${base}/cut${maxheight === undefined ? '' : `?maxheight=${maxheight}`}`,
  /** GET: a page of blocks of `chain`, ascending. */
  blockPage: (base: string, chain: number, query: PageQuery = {}): string => `${base}/chain/${chain}/block${pageQueryString(query)}`,
  /** POST: a page of the branch of `chain` between bounds, descending. */
  branchPage: (base: string, chain: number, query: PageQuery = {}): string =>
    `${base}/chain/${chain}/block/branch${pageQueryString(query)}`,
  /**
   * GET: the header update event stream; `since`: the id of the last event seen, to be sent what
   * followed it; `depth`: only blocks of the winning branch that many below their chain's head (Weft).
   */
  headerUpdates: (base: string, since?: string, depth?: number): string => {
    const query = [
      ...(depth === undefined ? [] : [`depth=${depth}`]),
      ...(since === undefined ? [] : [`since=${encodeURIComponent(since)}`]),
    ]
    return `${base}/header/updates${query.length === 0 ? '' : `?${query.join('&')}`}`
  },
} as const

/** What a node URL says by itself: its root, and the profile and network when its path is a base path. */
export interface NodeUrl {
  /** The URL as given, without trailing slashes. */
  readonly url: string
  /** Where `/info` and the other host-root endpoints are (a proxy's path prefix included). */
  readonly root: string
  readonly profile: Profile | undefined
  readonly network: string | undefined
}

const basePathPattern = /^(.*?)\/(chain|chainweb)\/0\.0\/([^/]+)$/

/**
 * Why `text` is not a node URL (not http or https, or with a query or fragment), in words a message
 * can use after "Expected ... to be"; undefined when it is one.
 */
export function nodeUrlProblem(text: string): string | undefined {
  if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol)) return 'an http or https URL'
  const parsed = new URL(text)
  if (parsed.search !== '' || parsed.hash !== '') return 'a URL without query or fragment'
  return undefined
}

/**
 * Splits a node URL (`http://host:1848`, `http://host/chainweb/0.0/mainnet01`, a proxy's prefix
 * allowed) into its parts; check it with `nodeUrlProblem` first (anything else counts as a root).
 */
export function parseNodeUrl(text: string): NodeUrl {
  const url = text.replace(/\/+$/, '')
  if (nodeUrlProblem(text) !== undefined) return { url, root: url, profile: undefined, network: undefined }
  const parsed = new URL(text)
  const path = parsed.pathname.replace(/\/+$/, '')
  const match = basePathPattern.exec(path)
  if (match === null) return { url, root: `${parsed.origin}${path}`, profile: undefined, network: undefined }
  return {
    url,
    root: `${parsed.origin}${match[1]}`,
    profile: match[2] === wireProfiles.chainweb.basePrefix ? 'chainweb' : 'spec',
    network: decodeURIComponent(match[3]!),
  }
}
