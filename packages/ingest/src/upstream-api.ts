import { type Block, blockFromJson, parseJsonExact } from '@weft/block'
import { decodeHash, encodeHash } from '@weft/hash-text'
import type { ChainwebFullBlock, FullBlock } from '@weft/types'
import { UpstreamHttpError, UpstreamResponseError } from './errors.js'
import type { HttpAnswer, HttpClient } from './http-client.js'
import { type CheckedKind, checkResponse } from './response-checks.js'
import type { UpstreamTarget } from './upstream-target.js'

/** A head of an upstream's cut. */
export interface CutHead {
  readonly height: number
  readonly hash: Buffer
}

/** An upstream's `/cut`: its head per chain. */
export type UpstreamCut = ReadonlyMap<number, CutHead>

/** Paging parameters of GET block and POST branch. */
export interface PageQuery {
  readonly minheight?: number | undefined
  readonly maxheight?: number | undefined
  readonly limit?: number | undefined
  readonly next?: string | undefined
}

/** A page of full blocks, decoded; `next` is the cursor of the following page, undefined at the end. */
export interface FetchedPage {
  readonly blocks: Block[]
  readonly next: string | undefined
}

/** The bounds of a branch query. */
export interface BranchQuery {
  readonly lower: readonly Buffer[]
  readonly upper: readonly Buffer[]
}

/** The endpoints of one upstream that ingest reads, decoded and (optionally) checked against the schemas. */
export class UpstreamApi {
  readonly target: UpstreamTarget
  readonly #http: HttpClient
  readonly #checked: boolean

  constructor(target: UpstreamTarget, http: HttpClient, checked: boolean) {
    this.target = target
    this.#http = http
    this.#checked = checked
  }

  /** `GET {base}/cut`, or the upstream's cut limited to a cut height with `maxheight`. */
  async cut(maxheight: number | undefined, signal: AbortSignal | undefined): Promise<UpstreamCut> {
    const url = `${this.target.base}/cut${maxheight === undefined ? '' : `?maxheight=${maxheight}`}`
    const text = (await this.#http.ok(url, { signal })).body.toString('utf8')
    if (this.#checked) checkResponse('cut', text, `GET ${url}`)
    const body = parse(text, url) as { hashes?: unknown }
    if (typeof body?.hashes !== 'object' || body.hashes === null)
      throw new UpstreamResponseError(`Expected GET ${url} to answer a cut with hashes`)
    const heads = new Map<number, CutHead>()
    for (const [chain, head] of Object.entries(body.hashes as Record<string, { height?: unknown; hash?: unknown }>)) {
      const height = head?.height
      if (!/^\d+$/.test(chain) || typeof height !== 'number' || !Number.isSafeInteger(height) || typeof head.hash !== 'string') {
        throw new UpstreamResponseError(
          `Expected GET ${url} to give each chain a height and a hash, received ${JSON.stringify(head)} for ${chain}`,
        )
      }
      heads.set(Number(chain), { height, hash: hashOf(head.hash, url) })
    }
    return heads
  }

  /** One page of `GET {base}/chain/{chain}/block`. */
  async blockPage(chain: number, query: PageQuery, signal: AbortSignal | undefined): Promise<FetchedPage> {
    const url = `${this.target.base}/chain/${chain}/block${queryText(query)}`
    return this.#page('GET', url, undefined, signal)
  }

  /** One page of `POST {base}/chain/{chain}/block/branch`. */
  async branchPage(chain: number, bounds: BranchQuery, query: PageQuery, signal: AbortSignal | undefined): Promise<FetchedPage> {
    const url = `${this.target.base}/chain/${chain}/block/branch${queryText(query)}`
    const body = JSON.stringify({ lower: bounds.lower.map(encodeHash), upper: bounds.upper.map(encodeHash) })
    return this.#page('POST', url, body, signal)
  }

  /** Where the header update stream is. */
  get headerUpdatesUrl(): string {
    return `${this.target.base}/header/updates`
  }

  /** Checks one update event's data against its schema, when checks are on. */
  checkUpdate(data: string): void {
    if (this.#checked) checkResponse(`${this.target.profile}-update`, data, `an update event of ${this.target.url}`)
  }

  async #page(method: 'GET' | 'POST', url: string, body: string | undefined, signal: AbortSignal | undefined): Promise<FetchedPage> {
    let answer: HttpAnswer
    try {
      answer = await this.#http.ok(url, { method, signal, ...(body === undefined ? {} : { body }) })
    } catch (error) {
      // The spec profile answers a query that matches nothing with a 404 problem; chainweb with an empty page.
      if (error instanceof UpstreamHttpError && error.serverCode === 'NO_MATCHING_BLOCKS') return { blocks: [], next: undefined }
      throw error
    }
    if (this.#checked) checkResponse(`${this.target.profile}-page` as CheckedKind, answer.body.toString('utf8'), `${method} ${url}`)
    const page = parseExact(answer.body, url) as { items?: unknown; next?: unknown }
    if (!Array.isArray(page?.items)) throw new UpstreamResponseError(`Expected ${method} ${url} to answer a page with items, received none`)
    let blocks: Block[]
    try {
      blocks = (page.items as Array<FullBlock | ChainwebFullBlock>).map(blockFromJson)
    } catch (error) {
      throw new UpstreamResponseError(
        `Expected ${method} ${url} to answer full blocks, received one that does not decode: ${(error as Error).message}`,
        {
          cause: error,
        },
      )
    }
    // More follows a page whose `next` starts a new one: `inclusive:`. The spec profile ends with
    // null, chainweb's GET block with `exclusive:<last>`, whose page would be empty.
    const next = typeof page.next === 'string' && page.next.startsWith('inclusive:') ? page.next : undefined
    return { blocks, next }
  }
}

/**
 * Records `next`, a cursor a page gave, among those one walk through pages followed, and answers
 * it. A cursor followed before is a bad response: the walk would go round for ever.
 */
export function followCursor(followed: Set<string>, next: string | undefined, upstream: string): string | undefined {
  if (next === undefined) return undefined
  if (followed.has(next)) {
    throw new UpstreamResponseError(`Expected each page from ${upstream} to give a cursor not followed before, received ${next} again`)
  }
  followed.add(next)
  return next
}

/** The bad response of an upstream that refused (404) a cursor again after the walk started over on it. */
export function cursorRefused(upstream: string, next: string, cause: UpstreamHttpError): UpstreamResponseError {
  return new UpstreamResponseError(
    `Expected ${upstream} to serve the cursors of its own pages, received 404 for ${next} after reading from the start again`,
    { cause },
  )
}

function queryText(query: PageQuery): string {
  const parameters = new URLSearchParams()
  if (query.limit !== undefined) parameters.set('limit', String(query.limit))
  if (query.minheight !== undefined) parameters.set('minheight', String(query.minheight))
  if (query.maxheight !== undefined) parameters.set('maxheight', String(query.maxheight))
  if (query.next !== undefined) parameters.set('next', query.next)
  const text = parameters.toString()
  return text === '' ? '' : `?${text}`
}

function parse(text: string, url: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new UpstreamResponseError(`Expected ${url} to answer JSON, received text that does not parse`, { cause: error })
  }
}

// featureFlags may exceed 2^53 (release 3.2's fork votes), so pages are parsed exactly: from the
// bytes, which costs less than decoding them to a string first (see parseJsonExact).
function parseExact(body: Buffer, url: string): unknown {
  try {
    return parseJsonExact(body)
  } catch (error) {
    throw new UpstreamResponseError(`Expected ${url} to answer JSON, received text that does not parse`, { cause: error })
  }
}

function hashOf(text: string, url: string): Buffer {
  try {
    return decodeHash(text)
  } catch (error) {
    throw new UpstreamResponseError(`Expected GET ${url} to name heads by 43-character hashes, received ${JSON.stringify(text)}`, {
      cause: error,
    })
  }
}
