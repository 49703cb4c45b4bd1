import type { Block } from '@weft/block'
import { fill } from '@weft/devnet'
import { openStore } from '@weft/store'
import { blocksOf, cutOf, eventually, followerStore, freshFolder, storedHashes } from '@weft/test-kit'
import t, { type Test } from 'tap'
import { createIngest, type IngestEvent } from '../src/index.js'
import { refuseStream, serveContract } from './fixtures/contract-server.js'
import { collectingLogger, quick } from './fixtures/ingests.js'
import { filledStore } from './fixtures/stores.js'

const sameBlocks = async (a: Parameters<typeof storedHashes>[0], b: Parameters<typeof storedHashes>[0]): Promise<boolean> =>
  JSON.stringify(await storedHashes(a)) === JSON.stringify(await storedHashes(b))

/**
 * A source holding every block of a forked fill but two: `late`, the highest orphan no block
 * names, and `last`, a head at the top on another chain. Writing both at once later is an upstream
 * whose orphan came after the pages and sweeps around it were read, that moved one other chain,
 * and then stopped producing.
 */
async function heldBack(t: Test, seed: string) {
  const full = await filledStore(t, 200, { forkRate: 0.3, seed })
  const blocks = await blocksOf(full)
  const key = (hash: Buffer): string => hash.toString('base64url')
  const named = new Set<string>()
  for (const { header } of blocks) {
    named.add(key(header.parent))
    for (const [, hash] of header.adjacents) named.add(key(hash))
  }
  const heads = full.cut()
  const isHead = (block: Block): boolean => heads.get(block.header.chainId)!.hash.equals(block.header.hash)
  const leaves = blocks.filter((block) => !named.has(key(block.header.hash)))
  const late = leaves.filter((block) => !isHead(block)).at(-1)!
  // A head alone at its height: without it, its parent is its chain's head.
  const alone = (block: Block): boolean =>
    blocks.filter((other) => other.header.chainId === block.header.chainId && other.header.height === block.header.height).length === 1
  const last = leaves.filter((block) => isHead(block) && block.header.chainId !== late.header.chainId && alone(block)).at(-1)!
  const source = await openStore({ path: freshFolder(t), network: 'development' })
  t.teardown(() => source.close())
  await source.insertMany(blocks.filter((block) => block !== late && block !== last))
  return { full, source, late, last }
}

t.test('an empty store copies a spec upstream with forks and stands on its cut', async (t) => {
  const source = await filledStore(t, 1500)
  const upstream = await serveContract(t, source, 'spec')
  const store = await followerStore(t)
  const events: IngestEvent[] = []
  const progress: Array<[number, number]> = []
  const ingest = createIngest({
    ...quick,
    store,
    upstreams: [upstream.url],
    onEvent: (event) => events.push(event),
    onProgress: (done, total) => progress.push([done, total]),
  })
  t.teardown(() => ingest.stop())
  t.equal(ingest.status().phase, 'starting')
  await ingest.start()
  await ingest.start()
  // Wait for a following, ready ingest whose copy reported its progress whole.
  const settled = (): boolean => {
    const [done, total] = progress.at(-1) ?? [0, 0]
    return ingest.status().ready && ingest.status().phase === 'following' && total > 0 && done === total
  }
  t.ok(await eventually(settled), 'ready')
  t.same(cutOf(store), cutOf(source), 'the same cut')
  t.same(await storedHashes(store), await storedHashes(source), 'the same blocks, orphans included')
  t.match(
    events.find((event) => event.type === 'synced'),
    { type: 'synced', inserted: 1500, chains: 20 },
  )
  const pages = events.filter((event) => event.type === 'page')
  t.ok(pages.length >= 20, `${pages.length} page events`)
  t.equal(
    pages.reduce((sum, page) => sum + page.inserted, 0),
    1500,
    'every new block was counted in its page',
  )
  // Read in the same turn as a settled state: nothing else runs in between.
  t.ok(await eventually(settled), 'settled')
  const [done, total] = progress.at(-1)!
  t.ok(total > 0 && done === total, `progress reached ${done}/${total}`)
  t.match(ingest.status(), {
    phase: 'following',
    inserted: 1500,
    retries: 0,
    failovers: 0,
    rejected: 0,
    upstreams: [{ state: 'active', profile: 'spec' }],
  })
  await ingest.stop()
  await ingest.done
  t.equal(ingest.status().phase, 'stopped')
  t.equal(ingest.status().ready, false, 'a stopped ingest is not ready')
})

t.test('following: new blocks with forks, a chainweb upstream whose orphans are swept, then a gap too far for branches', async (t) => {
  const source = await filledStore(t, 400, { seed: 'follow' })
  const upstream = await serveContract(t, source, 'chainweb')
  const store = await followerStore(t)
  const events: IngestEvent[] = []
  // Small windows: a block more than 8 heights above the store (160 blocks / 20 chains) is copied by
  // pages, not fetched by branches. Below one write of the source (256 blocks, about 12 heights), so
  // the far fill below is far at the first step the follower sees, however quickly it follows.
  const ingest = createIngest({
    ...quick,
    windowBlocks: 160,
    resumeMargin: 4,
    store,
    upstreams: [upstream.url],
    onEvent: (event) => events.push(event),
  })
  t.teardown(() => ingest.stop())
  await ingest.start()
  t.ok(await eventually(() => ingest.status().ready && events.some((event) => event.type === 'synced')), 'copied')
  await fill(source, { blocks: 100, forkRate: 0.4, seed: 'follow-more' })
  t.ok(await eventually(() => JSON.stringify(cutOf(store)) === JSON.stringify(cutOf(source))), 'followed the new blocks')
  t.ok(
    await eventually(async () => JSON.stringify(await storedHashes(store)) === JSON.stringify(await storedHashes(source))),
    'orphans too',
  )
  const followed = events.filter((event) => event.type === 'inserted')
  t.equal(followed.length, 100, 'each block new while following is an event')
  // Chains 50 heights ahead: more than branch queries fetch, so ingest copies by pages again.
  const syncs = events.filter((event) => event.type === 'synced').length
  await fill(source, { blocks: 1000, forkRate: 0.1, seed: 'follow-far' })
  t.ok(await eventually(() => JSON.stringify(cutOf(store)) === JSON.stringify(cutOf(source))), 'caught up')
  t.ok(events.filter((event) => event.type === 'synced').length > syncs, 'by another copy')
  // An orphan the source wrote after the copy read its chain's page comes with the sweep of the
  // tips once the source is quiet.
  t.ok(await eventually(() => sameBlocks(store, source)), 'orphans of the copy too')
})

for (const { profile, stream } of [
  { profile: 'chainweb', stream: true },
  { profile: 'spec', stream: false },
] as const) {
  t.test(
    `an orphan a ${profile} upstream (${stream ? 'with' : 'without'} a stream) writes late below its tips, before it stops, is found once it is quiet`,
    async (t) => {
      const { full, source, late, last } = await heldBack(t, `late-${profile}`)
      t.ok(late.header.height >= full.heads().get(late.header.chainId)!.height - 16, 'the orphan lies within resumeMargin of its tip')
      const upstream = await serveContract(t, source, profile)
      if (!stream) refuseStream(upstream)
      const store = await followerStore(t)
      const ingest = createIngest({ ...quick, store, upstreams: [upstream.url] })
      t.teardown(() => ingest.stop())
      await ingest.start()
      t.ok(await eventually(() => sameBlocks(store, source)), 'caught up')
      // One write: the orphan, and a block that moves another chain (whose step sweeps that chain only).
      await source.insertMany([late, last])
      t.ok(await eventually(async () => (await store.getRefs([late.header.hash]))[0] !== undefined), 'the late orphan is stored')
      // The step adopts the upstream's cut after it wrote the blocks and swept: wait for both.
      const sameCut = (): boolean => JSON.stringify(cutOf(store)) === JSON.stringify(cutOf(full))
      t.ok(await eventually(async () => (await sameBlocks(store, full)) && sameCut()), 'every block, on the same cut')
      t.same(cutOf(store), cutOf(full))
    },
  )
}

t.test('a spec upstream followed by cut polls (its stream refused): the orphans among the new blocks are swept', async (t) => {
  const source = await filledStore(t, 200, { seed: 'polls' })
  const upstream = await serveContract(t, source, 'spec')
  refuseStream(upstream)
  const store = await followerStore(t)
  // A small margin: the tips' sweep of a quiet upstream reads only the top two heights, the step's
  // sweep every height that moved.
  const ingest = createIngest({ ...quick, resumeMargin: 2, store, upstreams: [upstream.url] })
  t.teardown(() => ingest.stop())
  await ingest.start()
  t.ok(await eventually(() => JSON.stringify(cutOf(store)) === JSON.stringify(cutOf(source))), 'caught up')
  await fill(source, { blocks: 200, forkRate: 0.4, seed: 'polls-more' })
  t.ok(await eventually(() => sameBlocks(store, source)), 'the new blocks, orphans included')
})

t.test('stop() while a failed round waits out its backoff stops ingest; it is no failure', async (t) => {
  const source = await filledStore(t, 50, { seed: 'stop-in-backoff' })
  const upstream = await serveContract(t, source)
  upstream.intercept = (_req, res, path) => {
    if (!path.endsWith('/cut')) return false
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end('{"hashes":7}')
    return true
  }
  const store = await followerStore(t)
  const { logger, lines } = collectingLogger()
  const ingest = createIngest({ ...quick, retryDelay: 5000, maxRetryDelay: 10_000, store, upstreams: [upstream.url], logger })
  await ingest.start()
  t.ok(await eventually(() => lines.some((line) => line.message.startsWith('ingest round failed'))), 'a round failed')
  await ingest.stop()
  await t.resolves(ingest.done)
  t.equal(ingest.status().phase, 'stopped')
  t.notOk(lines.some((line) => line.message === 'ingest stopped by a failure'))
})

t.test('follow: false copies once and ends; an upstream of another network stops the start', async (t) => {
  const source = await filledStore(t, 200, { seed: 'once' })
  const upstream = await serveContract(t, source, 'spec')
  const store = await followerStore(t)
  const ingest = createIngest({ ...quick, store, upstreams: [upstream.url], follow: false })
  await ingest.start()
  await ingest.done
  t.equal(ingest.status().phase, 'stopped')
  t.same(cutOf(store), cutOf(source))
  await ingest.stop()
  const other = await followerStore(t, 'test-singleton')
  const refused = createIngest({ store: other, upstreams: [upstream.url] })
  await t.rejects(refused.start(), { code: 'UPSTREAM_NETWORK_MISMATCH' })
  await t.rejects(refused.done, { code: 'UPSTREAM_NETWORK_MISMATCH' })
  const never = createIngest({ store: other, upstreams: [upstream.url] })
  await never.stop()
  await never.done
  await never.start()
  t.equal(never.status().phase, 'starting', 'a stopped ingest does not start')
})

t.test('with failFast an invalid block ends ingest with its typed error, and nothing invalid is stored', async (t) => {
  const source = await filledStore(t, 100, { seed: 'invalid' })
  const upstream = await serveContract(t, source, 'spec')
  const victim = [...source.cut().values()][5]!
  const real = victim.hash.toString('base64url')
  const altered = `${real.slice(0, 10)}${real[10] === 'A' ? 'B' : 'A'}${real.slice(11)}`
  upstream.rewrite = (body) => body.replaceAll(`"hash":"${real}"`, `"hash":"${altered}"`)
  const store = await followerStore(t)
  const { logger, lines } = collectingLogger()
  const ingest = createIngest({ ...quick, store, upstreams: [upstream.url], failFast: true, logger })
  await ingest.start()
  await t.rejects(ingest.done, { code: 'INVALID_BLOCK' })
  t.equal(ingest.status().phase, 'failed')
  t.equal(ingest.status().rejected, 1)
  t.same(ingest.status().refusals, new Map([['INVALID_BLOCK_HASH', 1]]))
  t.equal(await store.getHeader(victim.hash), undefined)
  t.ok(
    lines.some((line) => line.level === 'error' && line.fields.code === 'INVALID_BLOCK'),
    'logged',
  )
})
