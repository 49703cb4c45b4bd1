import { fill } from '@weft/devnet'
import { openStore } from '@weft/store'
import { eventually, freshFolder } from '@weft/test-kit'
import t from 'tap'
import type { ReadyBody } from '../../src/routes/ready-route.js'
import { send, startNode } from '../fixtures/node.js'
import { getText, startFollower, startProxy } from '../fixtures/upstreams.js'

async function ready(url: string): Promise<{ status: number; body: ReadyBody }> {
  const { status, text } = await getText(`${url}/ready`)
  return { status, body: JSON.parse(text) as ReadyBody }
}

t.test('a devnet node is ready once its store is open', async (t) => {
  const node = await startNode(t, { data: freshFolder(t), profile: 'chainweb' })
  const response = await send(`${node.url}/ready`, { headers: { accept: 'text/html' } })
  t.equal(response.status, 200, 'Accept is ignored')
  t.match(response.headers['content-type'], /^application\/json/)
  t.same(JSON.parse(response.body.toString()), {
    ready: true,
    store: { writable: true, reason: null, folder: null, freeBytes: null, since: null },
    damaged: null,
    phase: 'devnet',
    lag: {},
    maxLag: null,
    staleAfter: null,
    upstreams: [],
  })
  const head = await send(`${node.url}/ready`, { method: 'HEAD' })
  t.equal(head.status, 200)
  t.equal(head.body.length, 0)
})

t.test('a follower: 503 while copying, 200 once caught up, 503 when its upstream is gone past --stale-after', async (t) => {
  const data = freshFolder(t)
  const seeded = await openStore({ path: data, network: 'development' })
  await fill(seeded, { blocks: 1000, forkRate: 0.1, seed: 'ready' })
  await seeded.close()
  const upstream = await startNode(t, { data })
  // Pages come slowly, so the copy is seen under way.
  const slow = await startProxy(t, upstream.url, {
    intercept: async (req) => {
      if (/\/block\?/.test(req.url ?? '')) await new Promise((resolve) => setTimeout(resolve, 40))
      return false
    },
  })
  const { server: follower } = await startFollower(t, [slow.url], { staleAfter: 1, maxLag: 3, ingest: { windowBlocks: 200 } })
  const copying = await ready(follower.url)
  t.equal(copying.status, 503, 'not ready while copying')
  t.match(copying.body, {
    ready: false,
    maxLag: 3,
    staleAfter: 1,
    upstreams: [{ url: slow.url, state: 'active', lastContact: String, lastError: null }],
  })
  t.ok(
    Object.values(copying.body.lag).some((heights) => heights > 3),
    `behind the upstream cut: ${JSON.stringify(copying.body.lag)}`,
  )
  t.ok(await eventually(async () => (await ready(follower.url)).status === 200), 'ready once caught up')
  const caughtUp = await ready(follower.url)
  t.match(caughtUp.body, { ready: true, phase: 'following' })
  t.same(Object.keys(caughtUp.body.lag).length, 20, 'a lag for every chain')
  t.ok(
    Object.values(caughtUp.body.lag).every((heights) => heights === 0),
    'no lag',
  )
  await slow.close()
  await upstream.close()
  t.ok(await eventually(async () => (await ready(follower.url)).status === 503), '503 once the upstream was silent past --stale-after')
  const stale = await ready(follower.url)
  t.ok(Date.now() - Date.parse(stale.body.upstreams[0]!.lastContact!) > 1000, 'its last contact is older than --stale-after')
  t.match(stale.body.upstreams[0], { state: 'retrying', lastError: { code: 'NETWORK_ERROR' } })
})
