import type { Block } from '@weft/block'
import { fill } from '@weft/devnet'
import { type ChainStore, openStore } from '@weft/store'
import { blocksOf, cutOf, followerStore, freshFolder, storedHashes } from '@weft/test-kit'
import t, { type Test } from 'tap'
import { adoptLimitedCut, adoptUpstreamCut, readCut } from '../src/cut-adoption.js'
import { createIngest } from '../src/index.js'
import { serveContract } from './fixtures/contract-server.js'
import { contextOf, quick } from './fixtures/ingests.js'
import { filledStore } from './fixtures/stores.js'

// A recap-development store braided up to height 80 at least on every chain: ten chains, and twenty
// from the transition at 60. The devnet mines it as the network's rules ask (its opening, then
// targets by the adjustment): the genesis targets are beyond a CPU.
async function acrossTransition(t: Test): Promise<{ source: ChainStore; blocks: Block[] }> {
  const source = await openStore({ path: freshFolder(t), network: 'recap-development' })
  t.teardown(() => source.close())
  for (let round = 0; source.cut().size < 20 || Math.min(...[...source.cut().values()].map((head) => head.height)) < 80; round++)
    await fill(source, { blocks: 200, seed: `transition-${round}` })
  return { source, blocks: await blocksOf(source) }
}

t.test('a copy across a graph transition: ten chains below 60, twenty above, the cut adopted on the way and at the top', async (t) => {
  const { source } = await acrossTransition(t)
  const upstream = await serveContract(t, source, 'chainweb')
  const store = await followerStore(t, 'recap-development')
  t.equal(store.cut().size, 10, 'a store of genesis blocks stands on ten chains')
  const ingest = createIngest({ ...quick, windowBlocks: 100, store, upstreams: [upstream.url], follow: false })
  await ingest.start()
  await ingest.done
  t.equal(store.cut().size, 20)
  t.same(cutOf(store), cutOf(source))
  t.same(await storedHashes(store), await storedHashes(source))
  t.ok(
    upstream.requests.some((request) => /\/block\?.*minheight=60/.test(request)),
    'pages of the chains that begin at the transition were read',
  )
})

t.test("during a copy the store's cut moves to the upstream's cut limited to what was written, never back", async (t) => {
  const { source, blocks } = await acrossTransition(t)
  const upstream = await serveContract(t, source, 'spec')
  const store = await followerStore(t, 'recap-development')
  await store.insertMany(blocks.filter((block) => block.header.height <= 70))
  const ctx = contextOf(t, store, [upstream.url])
  t.equal(topOf(store), 0, 'inserts do not move an adopted cut')
  t.notOk(await adoptLimitedCut(ctx, 30), 'no upstream chosen yet')
  await readCut(ctx)
  t.ok(await adoptLimitedCut(ctx, 30))
  t.same([store.cut().size, topOf(store)], [10, 30])
  t.ok(await adoptLimitedCut(ctx, 65))
  t.same([store.cut().size, topOf(store)], [20, 65], 'past the transition: twenty chains')
  t.notOk(await adoptLimitedCut(ctx, 50), 'never back')
  t.notOk(await adoptLimitedCut(ctx, 75), 'not with heads the store lacks')
  t.equal(topOf(store), 65)
  upstream.intercept = (_req, res, path) => {
    if (!path.endsWith('/cut')) return false
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ hashes: { '0': { height: 68, hash: encoded(blocks, 0, 68) } } }))
    return true
  }
  t.notOk(await adoptLimitedCut(ctx, 68), 'not a cut of the network: skipped')
  upstream.intercept = (_req, res) => {
    res.writeHead(500)
    res.end()
    return true
  }
  t.notOk(await adoptLimitedCut(ctx, 68), 'not when the upstream cannot answer')
  t.equal(topOf(store), 65)
})

t.test("an upstream's cut that is not one of the network demotes that upstream", async (t) => {
  const { source, blocks } = await acrossTransition(t)
  const upstream = await serveContract(t, source, 'spec')
  const store = await followerStore(t, 'recap-development')
  const ctx = contextOf(t, store, [upstream.url])
  await readCut(ctx)
  const wrong = new Map([
    [0, { height: 5, hash: blocks.find((block) => block.header.chainId === 0 && block.header.height === 5)!.header.hash }],
  ])
  await t.rejects(adoptUpstreamCut(ctx, wrong), { code: 'UPSTREAM_BAD_RESPONSE', message: /cut of recap-development/ })
  t.match(ctx.pool.status(), [{ state: 'demoted' }])
})

t.test('a cut that names its heads at other heights than theirs demotes its upstream, and a limited one is skipped', async (t) => {
  const source = await filledStore(t, 200, { forkRate: 0, seed: 'cut-heights' })
  const upstream = await serveContract(t, source, 'spec')
  const store = await followerStore(t)
  const ctx = contextOf(t, store, [upstream.url])
  const cut = await readCut(ctx)
  await store.insertMany((await blocksOf(source)).filter((block) => block.header.height <= 8))
  // Heads the store holds, each said to stand 10 heights higher than it does.
  upstream.intercept = (_req, res, path) => {
    if (!path.endsWith('/cut')) return false
    const limit = Math.min(...[...cut.values()].map((head) => head.height), 8)
    const heads = [...store.heads()].filter(([, head]) => head.height === limit)
    const hashes = Object.fromEntries(
      heads.map(([chain, head]) => [chain, { height: head.height + 10, hash: head.hash.toString('base64url') }]),
    )
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ hashes }))
    return true
  }
  t.notOk(await adoptLimitedCut(ctx, 8), 'a limited cut whose heads are not at the heights named is skipped')
  t.equal(topOf(store), 0)
  upstream.intercept = undefined
  // The upstream's real heads, each said to stand 500 heights higher: ingest would copy for ever to reach them.
  const lying = new Map([...cut].map(([chain, head]) => [chain, { ...head, height: head.height + 500 }]))
  await t.rejects(adoptUpstreamCut(ctx, lying), { code: 'UPSTREAM_BAD_RESPONSE', message: /at its height, received height 5\d\d for/ })
  t.match(ctx.pool.status(), [{ state: 'demoted', lastError: { code: 'UPSTREAM_BAD_RESPONSE' } }])
  t.equal(topOf(store), 0, 'not adopted')
  await adoptUpstreamCut(ctx, cut)
  t.same(cutOf(store), cutOf(source), 'the true cut is adopted')
})

function topOf(store: ChainStore): number {
  return Math.max(...[...store.cut().values()].map((head) => head.height))
}

function encoded(blocks: readonly Block[], chain: number, height: number): string {
  return blocks.find((block) => block.header.chainId === chain && block.header.height === height)!.header.hash.toString('base64url')
}
