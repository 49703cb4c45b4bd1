import { decodeHeader } from '@weft/block'
import type { Page } from '@weft/cursor'
import { encodeHash } from '@weft/hash-text'
import { seededRandom } from '@weft/test-kit'
import type { BlockHeader, BlockPage } from '@weft/types'
import t from 'tap'
import type { RunningServer } from '../../src/index.js'
import { type BlockRef, chainBlocks, filledFolder, type JsonResponse, postJson, send, sendJson, startNode } from '../fixtures/node.js'

// One chain of 450+ blocks with orphans: long enough that limits 360 and 361 both need two pages.
const dir = await filledFolder(t, 'test-singleton', 450, 0.25)

function rawOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'base64url'), Buffer.from(b, 'base64url'))
}

function ancestorsOrSelf(byHash: ReadonlyMap<string, BlockRef>, hash: string): Set<string> {
  const seen = new Set<string>()
  let at = byHash.get(hash)
  while (at !== undefined && !seen.has(at.hash)) {
    seen.add(at.hash)
    at = byHash.get(at.parent)
  }
  return seen
}

function bruteForceBranch(blocks: readonly BlockRef[], upper: string[], lower: string[], minheight?: number, maxheight?: number): string[] {
  const byHash = new Map(blocks.map((block) => [block.hash, block]))
  const included = new Set<string>()
  for (const hash of upper) for (const h of ancestorsOrSelf(byHash, hash)) included.add(h)
  for (const hash of lower) for (const h of ancestorsOrSelf(byHash, hash)) included.delete(h)
  return blocks
    .filter(
      (block) =>
        included.has(block.hash) &&
        (minheight === undefined || block.height >= minheight) &&
        (maxheight === undefined || block.height <= maxheight),
    )
    .sort((a, b) => b.height - a.height || rawOrder(a.hash, b.hash))
    .map((block) => block.hash)
}

// The chainweb profile's upper bounds under maxheight, as the real node has them: each replaced by its
// ancestor at maxheight, those below it dropped.
function chainwebUpper(blocks: readonly BlockRef[], upper: string[], maxheight: number | undefined): string[] {
  if (maxheight === undefined) return upper
  const byHash = new Map(blocks.map((block) => [block.hash, block]))
  return upper.flatMap((hash) => {
    let at = byHash.get(hash)!
    if (at.height < maxheight) return []
    while (at.height > maxheight) at = byHash.get(at.parent)!
    return [at.hash]
  })
}

async function pageThrough(
  url: (next: string | null) => string,
  post?: unknown,
): Promise<{ hashes: string[]; pages: number; lastNext: string | null }> {
  const hashes: string[] = []
  let next: string | null = null
  let pages = 0
  for (;;) {
    const response: JsonResponse<BlockPage> =
      post === undefined ? await sendJson<BlockPage>(url(next)) : await postJson<BlockPage>(url(next), post)
    if (response.status !== 200) throw new Error(`status ${response.status}: ${JSON.stringify(response.json)}`)
    pages++
    const page = response.json
    if (page.limit !== page.items.length) throw new Error('limit is not the number of items')
    hashes.push(...page.items.map((item) => item.header.hash))
    if (page.next === null || page.items.length === 0) return { hashes, pages, lastNext: page.next }
    next = page.next
  }
}

for (const profile of ['spec', 'chainweb'] as const) {
  t.test(`${profile} profile`, async (t) => {
    const server: RunningServer = await startNode(t, { data: dir, network: 'test-singleton', profile })
    const base = `${server.url}/${profile === 'spec' ? 'chain' : 'chainweb'}/0.0/test-singleton/chain/0`
    const blocks = await chainBlocks(server, 0)
    const versionKey = profile === 'spec' ? 'chainVersion' : 'chainwebVersion'

    t.test('paging the whole chain with limits 1, 7, 360 and 361 gives every block once, in order', async (t) => {
      t.ok(blocks.length > 361, 'the chain is longer than one full page')
      t.ok(new Set(blocks.map((block) => block.height)).size < blocks.length, 'the chain has orphans')
      for (const limit of [1, 7, 360, 361]) {
        const result = await pageThrough((next) => `${base}/block?limit=${limit}${next === null ? '' : `&next=${next}`}`)
        t.same(
          result.hashes,
          blocks.map((block) => block.hash),
          `limit ${limit}`,
        )
        t.equal(result.pages, Math.ceil(blocks.length / Math.min(limit, 360)) + (profile === 'chainweb' ? 1 : 0), `limit ${limit}: pages`)
      }
    })

    t.test("the last page ends with the profile's next", async (t) => {
      const last = blocks[blocks.length - 1]!
      const response = await sendJson<BlockPage>(`${base}/block?minheight=${last.height}`)
      t.equal(response.status, 200)
      const lastItem = response.json.items[response.json.items.length - 1]!
      t.equal(response.json.next, profile === 'spec' ? null : `exclusive:${lastItem.header.hash}`)
      t.equal(response.headers['content-type'], 'application/json;charset=utf-8')
      t.equal(Object.keys(response.json).join(), 'limit,items,next')
      t.equal(Object.keys(lastItem.header)[9], versionKey)
      t.equal(Object.keys(lastItem).join(), 'header,payloadWithOutputs')
    })

    t.test('minheight, maxheight and cursors bound the answer together', async (t) => {
      const inRange = blocks.filter((block) => block.height >= 100 && block.height <= 120)
      const result = await pageThrough((next) => `${base}/block?minheight=100&maxheight=120&limit=5${next === null ? '' : `&next=${next}`}`)
      t.same(
        result.hashes,
        inRange.map((block) => block.hash),
      )
      const from = blocks[50]!
      const inclusive = await sendJson<BlockPage>(`${base}/block?next=inclusive:${from.hash}&limit=3&maxheight=${from.height + 200}`)
      t.same(
        inclusive.json.items.map((item) => item.header.hash),
        blocks.slice(50, 53).map((block) => block.hash),
      )
      t.equal(inclusive.json.next, `inclusive:${blocks[53]!.hash}`)
      const exclusive = await sendJson<BlockPage>(`${base}/block?next=exclusive:${from.hash}&limit=3`)
      t.same(
        exclusive.json.items.map((item) => item.header.hash),
        blocks.slice(51, 54).map((block) => block.hash),
      )
      const belowMin = await sendJson<BlockPage>(`${base}/block?next=inclusive:${blocks[10]!.hash}&minheight=300&limit=1`)
      t.equal(
        belowMin.json.items[0]!.header.height,
        blocks.find((block) => block.height >= 300)!.height,
        'a cursor below minheight starts at minheight',
      )
      const huge = await sendJson<BlockPage>(`${base}/block?limit=99999999999999999999999`)
      t.equal(huge.json.limit, 360, 'a huge limit is served as 360')
      const zero = await sendJson<BlockPage>(`${base}/block?limit=0`)
      t.same(
        [zero.status, zero.json.limit, zero.json.next],
        [200, 0, `inclusive:${blocks[0]!.hash}`],
        'limit 0 returns no items and a cursor at the first block',
      )
    })

    t.test('branch answers equal a brute force over all blocks of the chain, for random bounds', async (t) => {
      const next = seededRandom(profile === 'spec' ? 7 : 11)
      const pick = (): string => blocks[Math.floor(next() * blocks.length)]!.hash
      for (let round = 0; round < 15; round++) {
        const upper = Array.from({ length: 1 + Math.floor(next() * 4) }, pick)
        const lower = Array.from({ length: Math.floor(next() * 3) }, pick)
        const minheight = next() < 0.3 ? Math.floor(next() * 200) : undefined
        const maxheight = next() < 0.3 ? 200 + Math.floor(next() * 250) : undefined
        const limit = 1 + Math.floor(next() * 150)
        const bounds = profile === 'spec' ? upper : chainwebUpper(blocks, upper, maxheight)
        const expected = bruteForceBranch(blocks, bounds, lower, minheight, maxheight)
        const query = `limit=${limit}${minheight === undefined ? '' : `&minheight=${minheight}`}${maxheight === undefined ? '' : `&maxheight=${maxheight}`}`
        if (expected.length === 0) {
          const response = await postJson(`${base}/block/branch?${query}`, { upper, lower })
          t.equal(response.status, profile === 'spec' ? 404 : 200, `round ${round}: an empty branch`)
          continue
        }
        const result = await pageThrough((cursor) => `${base}/block/branch?${query}${cursor === null ? '' : `&next=${cursor}`}`, {
          upper,
          lower,
        })
        t.same(result.hashes, expected, `round ${round}: ${upper.length} upper, ${lower.length} lower, limit ${limit}`)
        t.equal(result.lastNext, null)
      }
    })

    t.test('branch bodies tolerate null, duplicates and unknown lower bounds', async (t) => {
      const tip = blocks[blocks.length - 1]!.hash
      const expected = bruteForceBranch(blocks, [tip], [blocks[400]!.hash])
      const unknown = encodeHash(Buffer.alloc(32, 7))
      const response = await postJson<BlockPage>(`${base}/block/branch`, {
        upper: [tip, tip],
        lower: [blocks[400]!.hash, unknown, blocks[400]!.hash],
      })
      t.same(
        response.json.items.map((item) => item.header.hash),
        expected,
      )
      const nullLower = await postJson<BlockPage>(`${base}/block/branch?limit=2`, { upper: [tip], lower: null })
      t.equal(nullLower.json.items[0]!.header.hash, tip)
      const exclusive = await postJson<BlockPage>(`${base}/block/branch?limit=2&next=exclusive:${tip}`, { upper: [tip] })
      t.same(
        exclusive.json.items.map((item) => item.header.hash),
        bruteForceBranch(blocks, [tip], []).slice(1, 3),
        'an exclusive cursor starts after its block',
      )
      const offBranch = await postJson(`${base}/block/branch?next=inclusive:${tip}`, { upper: [blocks[300]!.hash] })
      t.equal(offBranch.status, profile === 'spec' ? 404 : 200, 'a cursor off the branch yields nothing')
      const empty = await postJson(`${base}/block/branch`, {})
      t.equal(empty.status, profile === 'spec' ? 404 : 200, 'no upper bound: nothing matches')
    })

    t.test('header pages carry binary headers, or header objects when asked', async (t) => {
      const binary = await sendJson<Page<string>>(`${base}/header?limit=5&minheight=10`)
      const stored = blocks.filter((block) => block.height >= 10).slice(0, 5)
      t.same(
        binary.json.items.map((text) => encodeHash(decodeHeader(Buffer.from(text, 'base64url')).hash)),
        stored.map((block) => block.hash),
      )
      const objects = await sendJson<Page<BlockHeader>>(`${base}/header?limit=5&minheight=10`, {
        headers: { accept: 'application/json;blockheader-encoding=object' },
      })
      t.equal(objects.headers['content-type'], 'application/json;blockheader-encoding=object')
      t.same(
        objects.json.items.map((header) => header.hash),
        stored.map((block) => block.hash),
      )
      t.ok(versionKey in objects.json.items[0]!)
      const tip = blocks[blocks.length - 1]!.hash
      const branch = await postJson<Page<BlockHeader>>(
        `${base}/header/branch?limit=3`,
        { upper: [tip] },
        { accept: 'application/json;blockheader-encoding=object' },
      )
      t.same(
        branch.json.items.map((header) => header.hash),
        bruteForceBranch(blocks, [tip], []).slice(0, 3),
      )
      const branchBinary = await postJson<Page<string>>(`${base}/header/branch?limit=3`, { upper: [tip] })
      t.equal(encodeHash(decodeHeader(Buffer.from(branchBinary.json.items[0]!, 'base64url')).hash), tip)
    })

    t.test('one header in each of its three encodings', async (t) => {
      const block = blocks[123]!
      const text = await sendJson<string>(`${base}/header/${block.hash}`)
      t.equal(encodeHash(decodeHeader(Buffer.from(text.json, 'base64url')).hash), block.hash)
      const object = await sendJson<BlockHeader>(`${base}/header/${block.hash}`, {
        headers: { accept: 'application/json;blockheader-encoding=object' },
      })
      t.same([object.json.hash, object.json.height, Object.keys(object.json)[9]], [block.hash, block.height, versionKey])
      const binary = await send(`${base}/header/${block.hash}`, { headers: { accept: 'application/octet-stream' } })
      t.equal(binary.headers['content-type'], 'application/octet-stream')
      t.equal(encodeHash(decodeHeader(binary.body).hash), block.hash)
      t.equal((await send(`${base}/header/${encodeHash(Buffer.alloc(32))}`)).status, 404)
      t.equal((await send(`${base}/header/not-a-hash`)).status, 400)
      t.equal((await send(`${base}/header/branch`)).status, 405)
    })

    t.test('hash pages default to and cap at 4096', async (t) => {
      const all = await sendJson<Page<string>>(`${base}/hash`)
      t.same(
        all.json.items,
        blocks.map((block) => block.hash),
      )
      t.equal(all.json.limit, blocks.length)
      const capped = await sendJson<Page<string>>(`${base}/hash?limit=100000`)
      t.equal(capped.json.limit, blocks.length)
      const tip = blocks[blocks.length - 1]!.hash
      const branch = await postJson<Page<BlockHeader>>(`${base}/hash/branch?limit=4`, { upper: [tip] })
      t.same(branch.json.items, bruteForceBranch(blocks, [tip], []).slice(0, 4))
    })
  })
}
