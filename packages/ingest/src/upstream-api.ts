import {
  type AnyBlockPage,
  type ChainTarget,
  chainPaths,
  followingCursor,
  type PageQuery,
  type ReadOptions,
  type ResponseChecker,
  readBlockPage,
  readBranchPage,
  readCut,
} from '@weft/api'
import { responseChecker } from '@weft/api/check'
import { type Block, blockFromJson } from '@weft/block'
import { decodeHash, encodeHash } from '@weft/hash-text'
import type { ChainwebFullBlock, FullBlock } from '@weft/types'
import { UpstreamResponseError } from './errors.js'
import type { HttpClient } from './http-client.js'
import type { UpstreamTarget } from './upstream-target.js'

/** A head of an upstream's cut. */
export interface CutHead {
  readonly height: number
  readonly hash: Buffer
}

/** An upstream's `/cut`: its head per chain. */
export type UpstreamCut = ReadonlyMap<number, CutHead>

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

/**
 * The endpoints of one upstream that ingest reads: `@weft/api`'s reads over ingest's `node:http`
 * transport, decoded into blocks and heads (and checked against the schemas when checks are on).
 */
export class UpstreamApi {
  readonly target: UpstreamTarget
  readonly #http: HttpClient
  readonly #chain: ChainTarget
  readonly #checker: ResponseChecker | undefined

  constructor(target: UpstreamTarget, http: HttpClient, checked: boolean) {
    this.target = target
    this.#http = http
    this.#chain = { base: target.base, profile: target.profile }
    this.#checker = checked ? responseChecker : undefined
  }

  /** `GET {base}/cut`, or the upstream's cut limited to a cut height with `maxheight`. */
  async cut(maxheight: number | undefined, signal: AbortSignal | undefined): Promise<UpstreamCut> {
    const url = chainPaths.cut(this.target.base, maxheight)
    const body = (await readCut(this.#http.send, this.#chain, maxheight, this.#options(signal))) as { hashes?: unknown }
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
    const page = await readBlockPage(this.#http.send, this.#chain, chain, query, this.#options(signal))
    return decoded(page, `GET ${chainPaths.blockPage(this.target.base, chain, query)}`)
  }

  /** One page of `POST {base}/chain/{chain}/block/branch`. */
  async branchPage(chain: number, bounds: BranchQuery, query: PageQuery, signal: AbortSignal | undefined): Promise<FetchedPage> {
    const hashes = { lower: bounds.lower.map(encodeHash), upper: bounds.upper.map(encodeHash) }
    const page = await readBranchPage(this.#http.send, this.#chain, chain, hashes, query, this.#options(signal))
    return decoded(page, `POST ${chainPaths.branchPage(this.target.base, chain, query)}`)
  }

  /** Where the header update stream is. */
  get headerUpdatesUrl(): string {
    return chainPaths.headerUpdates(this.target.base)
  }

  /** Checks one update event's data (already parsed) against its schema, when checks are on. */
  checkUpdate(value: unknown): void {
    this.#checker?.check('update', this.target.profile, value, `an update event of ${this.target.url}`)
  }

  #options(signal: AbortSignal | undefined): ReadOptions {
    return { signal, checker: this.#checker }
  }
}

// The blocks of a page, and the cursor of the page after it (undefined at the end, whatever the profile).
function decoded(page: AnyBlockPage, what: string): FetchedPage {
  let blocks: Block[]
  try {
    blocks = (page.items as unknown as Array<FullBlock | ChainwebFullBlock>).map(blockFromJson)
  } catch (error) {
    throw new UpstreamResponseError(
      `Expected ${what} to answer full blocks, received one that does not decode: ${(error as Error).message}`,
      {
        cause: error,
      },
    )
  }
  return { blocks, next: followingCursor(page) }
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
export function cursorRefused(upstream: string, next: string, cause: Error): UpstreamResponseError {
  return new UpstreamResponseError(
    `Expected ${upstream} to serve the cursors of its own pages, received 404 for ${next} after reading from the start again`,
    { cause },
  )
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
