import { fill } from '@weft/devnet'
import { openStore } from '@weft/store'
import { eventually, freshFolder } from '@weft/test-kit'
import t, { type Test } from 'tap'
import { parseCommandLine, type RunningServer, resolveConfig, startServer } from '../src/index.js'
import { startNode } from './fixtures/node.js'
import { assertSameNode, caughtUp, getText, startFollower } from './fixtures/upstreams.js'

const spec = '/chain/0.0/development'

// Stored blocks that are not on the winning branch of their chain.
async function orphanCount(server: RunningServer): Promise<number> {
  let stored = 0
  for (const chain of server.store.heads().keys()) for await (const _ of server.store.range({ chain })) stored += 1
  const onCut = [...server.store.cut().values()].reduce((sum, head) => sum + head.height + 1, 0)
  return stored - onCut
}

// Every stored block hash, chain by chain, ascending.
async function storedBlocks(server: RunningServer): Promise<string[][]> {
  const chains = [...server.store.heads().keys()].sort((a, b) => a - b)
  const all: string[][] = []
  for (const chain of chains) {
    const hashes: string[] = []
    for await (const item of server.store.range({ chain })) hashes.push(Buffer.from(item.hash).toString('base64url'))
    all.push(hashes)
  }
  return all
}
const chainweb = '/chainweb/0.0/development'

// Whether the follower stands on the upstream's cut and holds every block it holds, orphans included
// (those the producer wrote last come by a copy after the stream's reconnection or by the sweep of
// the tips once the upstream is quiet: which one depends on where the follower was when it stopped).
async function holdsAll(upstream: RunningServer, follower: RunningServer): Promise<boolean> {
  return caughtUp(upstream, follower) && JSON.stringify(await storedBlocks(follower)) === JSON.stringify(await storedBlocks(upstream))
}

// A devnet node that produced blocks with forks, then stopped producing (restarted on the same
// folder and port without its producer), so that its followers can be seen to reach it.
async function producedThenStill(t: Test, profile: 'spec' | 'chainweb', produceMs: number) {
  const data = freshFolder(t)
  const seeded = await openStore({ path: data, network: 'development' })
  await fill(seeded, { blocks: 400, forkRate: 0.3, seed: `upstream-${profile}` })
  await seeded.close()
  const producing = await startServer({
    host: '127.0.0.1',
    port: 0,
    data,
    profile,
    devnet: true,
    blockDelay: 0.3,
    forkRate: 0.3,
    logLevel: 'silent',
  })
  return {
    producing,
    // The restarted node, producing no more.
    still: async () => {
      await new Promise((resolve) => setTimeout(resolve, produceMs))
      const { port } = producing
      await producing.close()
      return { upstream: await startNode(t, { data, profile, port }) }
    },
  }
}

t.test('a follower of a devnet node with forks reaches its cut, every page byte for byte, orphans included', async (t) => {
  const { producing, still } = await producedThenStill(t, 'spec', 2500)
  const { server: follower } = await startFollower(t, [producing.url])
  t.equal(follower.store.cutPolicy, 'adopted', 'the store takes the upstream cut')
  t.equal(follower.config.devnet, false, 'no producer in upstream mode')
  const { upstream } = await still()
  t.ok(await eventually(() => holdsAll(upstream, follower)), 'the follower reached the upstream cut, orphans included')
  await assertSameNode(t, upstream, follower, spec)
  t.ok((await orphanCount(follower)) > 0, 'orphans were copied')
})

t.test('a chainweb-profile mainnet01 node of genesis blocks: the follower adopts its ten-chain genesis cut', async (t) => {
  const upstream = await startNode(t, { data: freshFolder(t), network: 'mainnet01', profile: 'chainweb' })
  const { server: follower } = await startFollower(t, [upstream.url], { network: 'mainnet01', profile: 'chainweb' })
  const base = '/chainweb/0.0/mainnet01'
  t.ok(await eventually(() => caughtUp(upstream, follower)), 'ready on the same cut')
  t.equal(follower.store.cut().size, 10, 'ten chains: 10-19 begin at 852054')
  t.same(
    [...follower.store.cut().keys()].sort((a, b) => a - b),
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  )
  await assertSameNode(t, upstream, follower, base)
  const data = follower.config.data
  await follower.close()
  const reopened = await openStore({ path: data, network: 'mainnet01', cutPolicy: 'adopted' })
  t.same(
    [...reopened.cut()].map(([chain, head]) => [chain, head.hash.toString('base64url')]),
    [...upstream.store.cut()].map(([chain, head]) => [chain, head.hash.toString('base64url')]),
    'the adopted cut is kept by the store',
  )
  await reopened.close()
})

t.test('a chainweb-profile development node with forks: orphans reach the follower too', async (t) => {
  const { producing, still } = await producedThenStill(t, 'chainweb', 2500)
  const { server: follower } = await startFollower(t, [producing.url], { profile: 'chainweb' })
  const { upstream } = await still()
  // The stream announces only blocks of the cut: an orphan the producer wrote after its chain's last
  // announcement comes by the copy after the stream's reconnection or by the quiet sweep of the tips.
  t.ok(await eventually(() => holdsAll(upstream, follower)), 'the follower reached the upstream cut, orphans included')
  await assertSameNode(t, upstream, follower, chainweb)
  t.ok((await orphanCount(follower)) > 0, 'orphans were copied, though the stream never announces them')
})

t.test('a Weft following a Weft following a Weft reaches the same cut and pages', async (t) => {
  const data = freshFolder(t)
  const seeded = await openStore({ path: data, network: 'development' })
  await fill(seeded, { blocks: 1500, forkRate: 0.2, seed: 'tiers' })
  await seeded.close()
  const origin = await startNode(t, { data })
  const { server: middle } = await startFollower(t, [origin.url])
  const { server: edge } = await startFollower(t, [middle.url], { profile: 'chainweb' })
  t.ok(await eventually(() => caughtUp(origin, middle)), 'the middle tier reached the origin')
  t.ok(await eventually(() => caughtUp(middle, edge)), 'the edge reached the middle tier')
  const heads = async (url: string, base: string) => (JSON.parse((await getText(`${url}${base}/cut`)).text) as { hashes: unknown }).hashes
  t.same(await heads(edge.url, chainweb), await heads(origin.url, spec), 'the edge stands on the origin cut')
  await assertSameNode(t, origin, middle, spec)
  t.same(await storedBlocks(edge), await storedBlocks(origin), 'the edge holds every block of the origin, orphans included')
})

t.test('an upstream of another network stops the start with the fix in the message, and frees the store', async (t) => {
  const upstream = await startNode(t, { data: freshFolder(t), network: 'test-singleton' })
  const data = freshFolder(t)
  await t.rejects(startServer({ port: 0, data, upstream: [upstream.url], logLevel: 'silent' }), {
    code: 'UPSTREAM_NETWORK_MISMATCH',
    message: /serves test-singleton.*--network test-singleton/,
  })
  await t.rejects(startServer({ port: 0, data, upstream: [`${upstream.url}/chain/0.0/mainnet01`], logLevel: 'silent' }), {
    code: 'UPSTREAM_NETWORK_MISMATCH',
    message: /serves mainnet01/,
  })
  const store = await openStore({ path: data, network: 'development' })
  await store.close()
  t.pass('the folder opens again')
})

t.test('--upstream and --devnet exclude each other, refused before start; upstreams come from flags or one variable', async (t) => {
  t.throws(() => resolveConfig({ upstream: ['http://127.0.0.1:1'], devnet: true }), {
    code: 'INVALID_CONFIG',
    message: /--upstream or --devnet.*drop --devnet/,
  })
  t.equal(resolveConfig({ upstream: ['http://127.0.0.1:1'] }).devnet, false, 'the producer is off by default with upstreams')
  t.throws(() => resolveConfig({ upstream: ['ftp://x'] }), { code: 'INVALID_CONFIG', message: /upstream/ })
  t.same(parseCommandLine(['--upstream', 'http://a:1', '--upstream', 'http://b:2'], {}), {
    help: false,
    options: { upstream: ['http://a:1', 'http://b:2'] },
  })
  t.same(parseCommandLine([], { WEFT_UPSTREAM: 'http://a:1, http://b:2' }), {
    help: false,
    options: { upstream: ['http://a:1', 'http://b:2'] },
  })
  t.same(parseCommandLine(['--max-lag', '5', '--stale-after', '2.5', '--ingest-concurrency', '8'], {}), {
    help: false,
    options: { maxLag: 5, staleAfter: 2.5, ingestConcurrency: 8 },
  })
})
