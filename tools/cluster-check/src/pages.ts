import { chainPaths, followingCursor, type PageLike } from '@weft/api'
import { base } from './cluster.js'
import { ClusterCheckError } from './errors.js'
import { getOk } from './http.js'

/** One block page as a node answered it: the path asked (origin aside) and the body's exact text. */
export interface Page {
  readonly path: string
  readonly body: string
}

interface PageBody extends PageLike {
  readonly items: ReadonlyArray<{ readonly header: { readonly chainId: number; readonly height: number } }>
}

/** The heights of a node's cut, by chain. */
export async function cutHeights(origin: string): Promise<Map<number, number>> {
  const cut = JSON.parse(await getOk(`${origin}${chainPaths.cut(base)}`)) as { hashes: Record<string, { height: number }> }
  return new Map(Object.entries(cut.hashes).map(([chain, head]) => [Number(chain), head.height]))
}

/** The path of a block page of `chain` up to `maxheight`, from `next` when given. */
export function pagePath(chain: number, maxheight: number, limit: number, next?: string): string {
  return chainPaths.blockPage(base, chain, { limit, maxheight, next })
}

/** The cursor of the page after the one in `body`; undefined on the last page (the profile's rule, `@weft/api`'s). */
export function nextOf(body: string): string | undefined {
  return followingCursor(JSON.parse(body) as PageBody)
}

/** Every block page of `chain` up to `maxheight` from `origin`, each next page asked with the previous page's cursor. */
export async function chainPages(origin: string, chain: number, maxheight: number, limit: number): Promise<Page[]> {
  const pages: Page[] = []
  let next: string | undefined
  for (;;) {
    const path = pagePath(chain, maxheight, limit, next)
    const body = await getOk(`${origin}${path}`)
    pages.push({ path, body })
    const cursor = nextOf(body)
    if (cursor === undefined) return pages
    if (pages.length > 10_000)
      throw new ClusterCheckError(
        'CLUSTER_BAD_ANSWER',
        `Expected the pages of chain ${chain} to end, ${origin} kept answering a next cursor`,
      )
    next = cursor
  }
}

/** Blocks in the pages, and how many of them are not the first of their chain at their height (forks). */
export function countBlocks(pages: readonly Page[]): { blocks: number; forks: number } {
  const places = new Set<string>()
  let blocks = 0
  for (const page of pages) {
    for (const { header } of (JSON.parse(page.body) as PageBody).items) {
      blocks += 1
      places.add(`${header.chainId}/${header.height}`)
    }
  }
  return { blocks, forks: blocks - places.size }
}

/** Undefined when both lists of pages are the same bytes at the same paths, else what differs first. */
export function pagesDiffer(expected: readonly Page[], actual: readonly Page[]): string | undefined {
  if (expected.length !== actual.length) return `${expected.length} pages expected, ${actual.length} received`
  for (const [i, page] of expected.entries()) {
    const other = actual[i] as Page
    if (other.path !== page.path) return `page ${i + 1}: path ${page.path} expected, ${other.path} received`
    if (other.body !== page.body)
      return `page ${i + 1} (${page.path}): ${page.body.length} bytes expected, ${other.body.length} different bytes received`
  }
  return undefined
}
