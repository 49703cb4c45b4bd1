import type { Cut, NodeInfo, Profile } from '@weft/types'
import type { ResponseChecker } from './checker.js'
import { InvalidResponseError } from './errors.js'
import { parseJsonExact } from './exact-json.js'
import { emptyPage, isNoMatch } from './pages.js'
import { chainPaths, type PageQuery } from './paths.js'
import type { HeaderReader } from './profiles.js'
import type { Send, WireAnswer } from './transport.js'
import type { AnyBlockPage, AnyHeaderUpdate } from './wire-types.js'

/** Where a node's chain endpoints are and which profile it speaks. */
export interface ChainTarget {
  /** `{root}{basePath(profile, network)}`: a URL. */
  readonly base: string
  readonly profile: Profile
}

/** How a read is made: the signal that cancels it, and a checker when answers are checked against their schemas. */
export interface ReadOptions {
  readonly signal?: AbortSignal | undefined
  readonly checker?: ResponseChecker | undefined
}

/** The bounds of a branch query: hashes as text. */
export interface BranchBounds {
  readonly lower?: readonly string[] | undefined
  readonly upper?: readonly string[] | undefined
}

/** `GET {root}/info`, checked when a checker is given, with the answer's headers (they tell the profile). */
export async function readInfo(send: Send, root: string, options: ReadOptions = {}): Promise<{ info: NodeInfo; header: HeaderReader }> {
  const url = `${root}/info`
  const answer = await send({ url, signal: options.signal })
  const info = parse(answer, `GET ${url}`, false) as NodeInfo
  options.checker?.check('info', 'spec', info, `GET ${url}`)
  return { info, header: answer.header }
}

/** `GET {base}/cut` (limited to a cut height with `maxheight`), checked when a checker is given; its shape is the caller's to trust. */
export async function readCut(send: Send, target: ChainTarget, maxheight?: number, options: ReadOptions = {}): Promise<Cut> {
  const url = chainPaths.cut(target.base, maxheight)
  const cut = parse(await send({ url, signal: options.signal }), `GET ${url}`, false)
  options.checker?.check('cut', target.profile, cut, `GET ${url}`)
  return cut as Cut
}

/** One page of `GET {base}/chain/{chain}/block`; a query matching nothing is the empty page in both profiles. */
export function readBlockPage(
  send: Send,
  target: ChainTarget,
  chain: number,
  query: PageQuery,
  options: ReadOptions = {},
): Promise<AnyBlockPage> {
  return readPage(send, target, 'GET', chainPaths.blockPage(target.base, chain, query), undefined, options)
}

/** One page of `POST {base}/chain/{chain}/block/branch`; a query matching nothing is the empty page in both profiles. */
export function readBranchPage(
  send: Send,
  target: ChainTarget,
  chain: number,
  bounds: BranchBounds,
  query: PageQuery,
  options: ReadOptions = {},
): Promise<AnyBlockPage> {
  const body = JSON.stringify({ lower: bounds.lower ?? [], upper: bounds.upper ?? [] })
  return readPage(send, target, 'POST', chainPaths.branchPage(target.base, chain, query), body, options)
}

/** The data of a header update event, `featureFlags` exact, checked against the profile's schema when a checker is given. */
export function readHeaderUpdate(data: string, profile: Profile, what: string, checker?: ResponseChecker): AnyHeaderUpdate {
  try {
    if (checker !== undefined) checker.check('update', profile, JSON.parse(data), what)
    return parseJsonExact(data) as AnyHeaderUpdate
  } catch (error) {
    throw error instanceof SyntaxError ? notJson(what, error) : error
  }
}

async function readPage(
  send: Send,
  target: ChainTarget,
  method: 'GET' | 'POST',
  url: string,
  body: string | undefined,
  options: ReadOptions,
): Promise<AnyBlockPage> {
  const what = `${method} ${url}`
  let answer: WireAnswer
  try {
    answer = await send({ method, url, signal: options.signal, ...(body === undefined ? {} : { body }) })
  } catch (error) {
    if (isNoMatch(error)) return emptyPage()
    throw error
  }
  if (options.checker !== undefined) options.checker.check('page', target.profile, parse(answer, what, false), what)
  const page = parse(answer, what, true) as { items?: unknown }
  if (!Array.isArray(page?.items)) throw new InvalidResponseError(`${what} to answer a page with items`, 'none')
  return page as AnyBlockPage
}

// A 2xx body as JSON; `exact` keeps featureFlags exact (decimal strings) for bodies that hold headers.
function parse(answer: WireAnswer, what: string, exact: boolean): unknown {
  try {
    if (exact) return parseJsonExact(answer.body)
    return JSON.parse(Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength).toString('utf8'))
  } catch (error) {
    throw notJson(what, error)
  }
}

function notJson(what: string, cause: unknown): InvalidResponseError {
  return new InvalidResponseError(`${what} to answer JSON`, 'text that does not parse', [], { cause })
}
