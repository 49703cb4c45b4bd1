import { mineBlock } from '@weft/devnet'
import { openStore } from '@weft/store'
import type { PayloadWithOutputs } from '@weft/types'
import t from 'tap'
import { createClient } from '../../src/index.js'
import { mirror } from '../../src/mirror/mirror.js'
import type { MirrorEvent } from '../../src/mirror/types.js'
import { assertSamePages, mirrorFolder, storedBlockCount } from '../fixtures/mirrored.js'
import { eventually, filledNode, freshFolder, rawPages, serveData, winningBranch } from '../fixtures/nodes.js'

t.test('a mirror into an empty folder serves every GET block page byte for byte like its upstream', async (t) => {
  const { server: upstream } = await filledNode(t, { blocks: 300, forkRate: 0.25 })
  const data = freshFolder(t)
  const events: MirrorEvent[] = []
  const progress: Array<[number, number]> = []
  const result = await mirrorFolder(upstream.url, data, {
    once: true,
    pageSize: 50,
    validate: true,
    onEvent: (e) => events.push(e),
    onProgress: (done, total) => progress.push([done, total]),
  })
  t.same(result, { network: 'development', inserted: 300 }, 'every block but the genesis blocks was new')
  t.match(events.at(-1), { event: 'synced', inserted: 300, chains: 20 })
  t.ok(events.filter((e) => e.event === 'page').length >= 20, 'a page event per page')
  const [done, total] = progress.at(-1)!
  t.ok(total > 0 && done === total, `progress reached ${done}/${total} heights`)
  const again = await mirrorFolder(upstream.url, data, { once: true })
  t.equal(again.inserted, 0, 'a second run finds nothing new')
  const local = await serveData(t, { data })
  await assertSamePages(t, upstream, local, '/chain/0.0/development')
  await local.close()
  const singleton = await openStore({ path: freshFolder(t), network: 'test-singleton', checkBraiding: false })
  await t.rejects(mirror(createClient({ url: upstream.url }), singleton, { once: true }), { code: 'NETWORK_MISMATCH' })
  await singleton.close()
})

t.test('a fork that grew below the resume point is fetched with its missing ancestors', async (t) => {
  const { server: upstream } = await filledNode(t, { network: 'test-singleton', blocks: 30, forkRate: 0 })
  const data = freshFolder(t)
  t.equal((await mirrorFolder(upstream.url, data, { once: true })).inserted, 30)
  // Three blocks forking two below the head: with no resume margin, the copy starts at the head's
  // height and meets the fork's second block before its first.
  const winning = await winningBranch(upstream, 0)
  let parent = winning.at(-3)!
  const payload = JSON.parse(String(await upstream.store.getPayloadJson(parent.payloadHash))) as PayloadWithOutputs
  const fork = []
  for (let i = 0; i < 3; i++) {
    const block = mineBlock({ parent, adjacents: [], payload, creationTime: parent.creationTime + 1000, nonce: 12345n })
    fork.push(block)
    parent = block.header
  }
  t.equal(await upstream.store.insertMany(fork), 3)
  t.equal((await mirrorFolder(upstream.url, data, { once: true, resumeMargin: 0 })).inserted, 3, 'only the fork was new')
  const local = await serveData(t, { data, network: 'test-singleton' })
  const base = '/chain/0.0/test-singleton'
  t.same(await rawPages(local.url, base, 0, 5), await rawPages(upstream.url, base, 0, 5), 'the same pages on both nodes')
})

t.test('a following mirror whose copy meets a dropped connection reconnects and copies again', async (t) => {
  const { server: upstream } = await filledNode(t, { blocks: 60, seed: 'drop' })
  let infoCalls = 0
  const controller = new AbortController()
  const events: MirrorEvent[] = []
  const result = await mirrorFolder(upstream.url, freshFolder(t), {
    signal: controller.signal,
    retryDelay: 20,
    onEvent: (e) => {
      events.push(e)
      if (e.event === 'synced') controller.abort()
    },
    // The second /info (the one of the copy, after the stream connected) fails as if the upstream went away.
    fetch: async (input, init) => {
      if (String(input).endsWith('/info') && ++infoCalls === 2) throw new TypeError('fetch failed', { cause: new Error('ECONNRESET') })
      return fetch(input, init)
    },
  })
  t.ok(infoCalls >= 3, 'the copy was started again')
  t.equal(result.inserted, 60)
  t.match(events.at(-1), { event: 'synced', inserted: 60 })
})

for (const profile of ['spec', 'chainweb'] as const) {
  t.test(`following a ${profile}-profile upstream picks up new blocks and forks, across an upstream restart`, async (t) => {
    const upstreamData = freshFolder(t)
    const producing = { data: upstreamData, profile, devnet: true, blockDelay: 0.5, forkRate: 0.3 }
    let upstream = await serveData(t, producing)
    const port = upstream.port
    const data = freshFolder(t)
    const controller = new AbortController()
    const events: MirrorEvent[] = []
    const running = mirrorFolder(upstream.url, data, {
      signal: controller.signal,
      retryDelay: 50,
      resumeMargin: 4,
      onEvent: (e) => events.push(e),
    })
    t.ok(await eventually(() => events.some((e) => e.event === 'synced')), 'the first copy finished')
    t.ok(await eventually(() => events.filter((e) => e.event === 'inserted').length >= 60), 'new blocks arrive while following')
    await upstream.close()
    // Without a producer the upstream stays fixed, so the mirror can be seen to catch up.
    upstream = await serveData(t, { data: upstreamData, profile, port })
    const target = (await storedBlockCount(upstream)) - 20
    const orphans = target - [...upstream.store.cut().values()].reduce((sum, head) => sum + head.height, 0)
    t.ok(orphans > 0, `the upstream made ${orphans} orphans, which the mirror must copy too`)
    const inserted = () => events.reduce((sum, e) => sum + (e.event === 'inserted' ? 1 : e.event === 'page' ? e.inserted : 0), 0)
    t.ok(await eventually(() => inserted() === target), `the mirror caught up: ${inserted()} of ${target} blocks`)
    controller.abort()
    const result = await running
    t.equal(result.inserted, target)
    const local = await serveData(t, { data, profile })
    await assertSamePages(t, upstream, local, profile === 'spec' ? '/chain/0.0/development' : '/chainweb/0.0/development')
  })
}
