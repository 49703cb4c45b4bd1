import { fill } from '@weft/devnet'
import t from 'tap'
import { createIngest, type IngestEvent } from '../src/index.js'
import { serveContract } from './fixtures/contract-server.js'
import { collectingLogger, quick } from './fixtures/ingests.js'
import { cutOf, eventually, filledStore, followerStore, storedHashes } from './fixtures/stores.js'

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
  // When the copy ends before the update stream first connects, the connection starts a second
  // copy (what was announced before it is unknown), which finds nothing new: wait for a following,
  // ready ingest whose last copy reported its progress whole.
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
  t.same(await storedHashes(store), await storedHashes(source))
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
  t.equal(await store.getHeader(victim.hash), undefined)
  t.ok(
    lines.some((line) => line.level === 'error' && line.fields.code === 'INVALID_BLOCK'),
    'logged',
  )
})
