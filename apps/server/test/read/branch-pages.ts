import t from 'tap'
import { type BlockRef, chainBlocks, filledFolder, postJson, startNode } from '../fixtures/node.js'

// One chain with orphans at many heights.
const dir = await filledFolder(t, 'test-singleton', 120, 0.3)

interface HashPage {
  limit: number
  items: string[]
  next: string | null
}

function ancestorAt(byHash: ReadonlyMap<string, BlockRef>, hash: string, height: number): BlockRef | undefined {
  let at = byHash.get(hash)
  while (at !== undefined && at.height > height) at = byHash.get(at.parent)
  return at?.height === height ? at : undefined
}

// Descending height, ties by raw hash: every ancestor-or-self of an upper bound, none of a lower one.
function expectedBranch(byHash: ReadonlyMap<string, BlockRef>, upper: string[], lower: string[], maxheight: number): string[] {
  const line = (hash: string): BlockRef[] => {
    const blocks: BlockRef[] = []
    for (let at = byHash.get(hash); at !== undefined; at = byHash.get(at.parent)) blocks.push(at)
    return blocks
  }
  const excluded = new Set(lower.flatMap((hash) => line(hash).map((block) => block.hash)))
  const included = new Map(upper.flatMap((hash) => line(hash)).map((block) => [block.hash, block]))
  return [...included.values()]
    .filter((block) => !excluded.has(block.hash) && block.height <= maxheight)
    .sort((a, b) => b.height - a.height || Buffer.compare(Buffer.from(a.hash, 'base64url'), Buffer.from(b.hash, 'base64url')))
    .map((block) => block.hash)
}

t.test('with maxheight, the chainweb profile replaces upper bounds by their ancestors there and drops those below it', async (t) => {
  for (const profile of ['spec', 'chainweb'] as const) {
    const server = await startNode(t, { data: dir, network: 'test-singleton', profile })
    const url = `${server.url}/${profile === 'spec' ? 'chain' : 'chainweb'}/0.0/test-singleton/chain/0/hash/branch`
    const blocks = await chainBlocks(server, 0)
    const byHash = new Map(blocks.map((block) => [block.hash, block]))
    const head = server.store.cut().get(0)!.hash.toString('base64url')
    const tip = byHash.get(head)!
    const winners = new Set<string>()
    for (let at = byHash.get(head); at !== undefined; at = byHash.get(at.parent)) winners.add(at.hash)
    const orphan = blocks.find((block) => !winners.has(block.hash) && block.height > 20 && block.height < tip.height - 20)!
    t.ok(orphan, 'an orphan well below the head')
    const maxheight = orphan.height + 10
    const lower = [ancestorAt(byHash, head, 5)!.hash]

    const answer = await postJson<HashPage>(`${url}?maxheight=${maxheight}`, { upper: [head, orphan.hash], lower })
    const upper = profile === 'spec' ? [head, orphan.hash] : [ancestorAt(byHash, head, maxheight)!.hash]
    t.same(answer.json.items, expectedBranch(byHash, upper, lower, maxheight), `${profile}: the branch`)
    t.equal(
      answer.json.items.includes(orphan.hash),
      profile === 'spec',
      `${profile}: the orphan's line is ${profile === 'spec' ? 'kept' : 'dropped'}`,
    )

    const below = await postJson<HashPage>(`${url}?maxheight=${maxheight}`, { upper: [orphan.hash] })
    if (profile === 'spec') t.same(below.json.items, expectedBranch(byHash, [orphan.hash], [], maxheight))
    else t.same([below.status, below.json], [200, { limit: 0, items: [], next: null }], 'every upper bound below maxheight: an empty page')

    const at = await postJson<HashPage>(`${url}?maxheight=${orphan.height}&limit=3`, { upper: [orphan.hash, orphan.hash] })
    t.same(at.json.items, expectedBranch(byHash, [orphan.hash], [], orphan.height).slice(0, 3), `${profile}: a bound at maxheight is kept`)
    const unknown = await postJson(`${url}?maxheight=3`, { upper: [head, Buffer.alloc(32, 7).toString('base64url')] })
    t.equal(unknown.status, 404, `${profile}: an unknown upper bound is still a 404`)
    const tooMany = Array.from({ length: 33 }, (_, i) => Buffer.alloc(32, i).toString('base64url'))
    t.equal((await postJson(`${url}?maxheight=3`, { upper: tooMany })).status, 400, `${profile}: 33 upper bounds are still a 400`)
    await server.close()
  }
})
