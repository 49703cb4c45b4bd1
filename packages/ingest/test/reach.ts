import { blocksOf, followerStore, storedHashes } from '@weft/test-kit'
import t, { type Test } from 'tap'
import { readCut } from '../src/cut-adoption.js'
import { insertWithAncestry, reach, type Wanted, want } from '../src/reach.js'
import { serveContract } from './fixtures/contract-server.js'
import { contextOf, stillRunningAfter } from './fixtures/ingests.js'
import { filledStore } from './fixtures/stores.js'

t.test('reach fetches the ancestry of its targets and of the neighbours they name, and skips what the upstream lacks', async (t) => {
  const source = await filledStore(t, 600, { forkRate: 0.3, seed: 'reach' })
  const upstream = await serveContract(t, source)
  const store = await followerStore(t)
  const ctx = contextOf(t, store, [upstream.url])
  const all = await blocksOf(source)
  const wanted: Wanted = new Map()
  // Every block of chain 0 (more than the 32 bounds of one query), and one the upstream never heard of.
  for (const { header } of all.filter((block) => block.header.chainId === 0)) want(wanted, 0, header)
  want(wanted, 1, { hash: Buffer.alloc(32, 7), height: 3 })
  const before = await storedCount(store)
  const written = await reach(ctx, wanted)
  t.ok(written.length > 40, `${written.length} blocks: chain 0 and the neighbours it names, down to genesis`)
  t.equal(await storedCount(store), before + written.length, 'it answers every block it wrote')
  t.equal(new Set(written.map((header) => header.hash.toString('hex'))).size, written.length, 'each once')
  for (const { header } of all.filter((block) => block.header.chainId === 0)) {
    if ((await store.getRefs([header.hash]))[0] === undefined) t.fail(`block ${header.height} of chain 0 missing`)
  }
  t.same(await reach(ctx, wanted), [], 'nothing more to fetch')
  t.ok(
    upstream.requests.filter((request) => request.startsWith('POST')).length >= 3,
    'several queries: bounds in chunks of 32, the unknown one asked alone',
  )
})

const storedCount = async (store: Parameters<typeof storedHashes>[0]): Promise<number> => (await storedHashes(store)).flat().length

// An upstream of 400 blocks without forks, and a follower that holds its heights 0-5.
async function followerUpToFive(t: Test, seed: string) {
  const source = await filledStore(t, 400, { forkRate: 0, seed })
  const upstream = await serveContract(t, source)
  const store = await followerStore(t)
  const ctx = contextOf(t, store, [upstream.url])
  await readCut(ctx)
  const all = await blocksOf(source)
  await store.insertMany(all.filter((block) => block.header.height <= 5))
  return { upstream, store, ctx, all, entry: ctx.pool.current! }
}

t.test('a refused insert fetches the missing parent and neighbours, then tries again', async (t) => {
  const { store, ctx, all, entry } = await followerUpToFive(t, 'repair')
  // A block 3 above: its parent, its parent's parent and the neighbours all three name are missing.
  const lone = all.find((block) => block.header.chainId === 7 && block.header.height === 8)!
  const before = await storedCount(store)
  const written = await insertWithAncestry(ctx, [{ block: lone, from: entry }])
  t.ok(store.heads().get(7)!.hash.equals(lone.header.hash))
  t.ok(written.at(-1)?.hash.equals(lone.header.hash), 'it answers the block, written last')
  t.ok(written.length >= 3 && written.some((header) => header.hash.equals(lone.header.parent)), "and the repair's blocks")
  t.equal(await storedCount(store), before + written.length, 'every block written, once')
})

t.test('one repair fetches every missing parent and neighbour of the batch, however many blocks lack one', async (t) => {
  const { upstream, store, ctx, all, entry } = await followerUpToFive(t, 'many-missing')
  // Height 7 of every chain without height 6: each block lacks its parent, more blocks than repairs allowed.
  const batch = all.filter((block) => block.header.height === 7)
  t.ok(batch.length > 8, `${batch.length} blocks, each refused on its own`)
  const before = upstream.requests.filter((request) => request.startsWith('POST')).length
  const written = await insertWithAncestry(
    ctx,
    batch.map((block) => ({ block, from: entry })),
  )
  t.same(written.filter((header) => header.height === 7).length, batch.length, 'the batch written, after the height 6 the repair fetched')
  t.ok(written.every((header, index) => index === 0 || header.height >= written[index - 1]!.height))
  for (const block of batch)
    t.ok(store.heads().get(block.header.chainId)!.hash.equals(block.header.hash), `chain ${block.header.chainId} at 7`)
  const queries = upstream.requests.filter((request) => request.startsWith('POST')).length - before
  t.ok(queries <= batch.length, `${queries} branch queries: one round, one per chain`)
})

t.test('an upstream that serves a block but not its parent fails the round after a bounded number of queries', async (t) => {
  const source = await filledStore(t, 200, { forkRate: 0, seed: 'liar' })
  const upstream = await serveContract(t, source)
  const store = await followerStore(t)
  const ctx = contextOf(t, store, [upstream.url])
  const cut = await readCut(ctx)
  const head = cut.get(0)!
  // It answers the head's branch with the head alone, and knows nothing below.
  upstream.intercept = async (req, res, path) => {
    if (!path.endsWith('/block/branch')) return false
    const body = await new Promise<string>((resolve) => {
      let text = ''
      req.on('data', (chunk: Buffer) => (text += chunk))
      req.on('end', () => resolve(text))
    })
    const upper = (JSON.parse(body) as { upper: string[] }).upper
    res.writeHead(upper.includes(head.hash.toString('base64url')) ? 200 : 404, {
      'content-type': 'application/json',
      'x-chain-node-version': 't',
    })
    const item = (await source.getBlockJson(head.hash))!.toString()
    res.end(upper.includes(head.hash.toString('base64url')) ? `{"limit":1,"items":[${item}],"next":null}` : '{"code":"BLOCK_NOT_FOUND"}')
    return true
  }
  const wanted: Wanted = new Map()
  want(wanted, 0, head)
  await t.rejects(reach(ctx, wanted), { code: 'UPSTREAM_BAD_RESPONSE', message: /still missing after 12 rounds/ })
})

t.test(
  'an upstream that refuses the cursors of its own branch pages is asked again once, then fails the query as a bad response',
  async (t) => {
    const source = await filledStore(t, 300, { forkRate: 0, seed: 'branch-cursor' })
    const upstream = await serveContract(t, source)
    const store = await followerStore(t)
    const ctx = contextOf(t, store, [upstream.url], { pageSize: 5 })
    const cut = await readCut(ctx)
    const cursorQuery = (request: string): boolean => request.startsWith('POST') && request.includes('next=')
    upstream.intercept = (req, res) => {
      if (!cursorQuery(`${req.method} ${req.url}`)) return false
      res.writeHead(404, { 'content-type': 'application/problem+json' })
      res.end('{"code":"CURSOR_NOT_FOUND"}')
      return true
    }
    const wanted: Wanted = new Map()
    want(wanted, 0, cut.get(0)!)
    await t.rejects(Promise.race([reach(ctx, wanted), stillRunningAfter(300_000)]), {
      code: 'UPSTREAM_BAD_RESPONSE',
      message: /cursors of its own pages/,
    })
    t.match(ctx.pool.status(), [{ state: 'demoted' }])
    t.equal(upstream.requests.filter(cursorQuery).length, 2, 'the cursor asked twice: once more after starting over')
  },
)
