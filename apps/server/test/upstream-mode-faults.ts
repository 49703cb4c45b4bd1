import { cpSync } from 'node:fs'
import { fill } from '@weft/devnet'
import { encodeHash } from '@weft/hash-text'
import { openStore } from '@weft/store'
import { eventually, freshFolder } from '@weft/test-kit'
import t, { type Test } from 'tap'
import type { ReadyBody } from '../src/routes/ready-route.js'
import { startNode } from './fixtures/node.js'
import { assertSameNode, caughtUp, getText, startFollower, startProxy } from './fixtures/upstreams.js'

const base = '/chain/0.0/development'

async function filledData(t: Test, blocks: number, seed: string): Promise<string> {
  const data = freshFolder(t)
  const store = await openStore({ path: data, network: 'development' })
  await fill(store, { blocks, forkRate: 0.2, seed })
  await store.close()
  return data
}

t.test('two upstreams, one killed during the copy: the follower goes on with the other, and its log says so', async (t) => {
  const data = await filledData(t, 1200, 'failover')
  const copy = freshFolder(t)
  cpSync(data, copy, { recursive: true })
  const first = await startNode(t, { data })
  const second = await startNode(t, { data: copy })
  // Pages through the first upstream come slowly, so that it dies with the copy half done.
  const slow = await startProxy(t, first.url, {
    intercept: async (req) => {
      if (/\/block\?/.test(req.url ?? '')) await new Promise((resolve) => setTimeout(resolve, 60))
      return false
    },
  })
  const { server: follower, log } = await startFollower(t, [slow.url, second.url], { ingest: { windowBlocks: 200 } })
  t.ok(await eventually(() => (follower.ingest?.status().inserted ?? 0) > 0), 'the copy began on the first upstream')
  await slow.close()
  await first.close()
  t.ok(await eventually(() => caughtUp(second, follower)), 'the follower reached the cut through the second upstream')
  await assertSameNode(t, second, follower, base)
  const failover = log.lines.find((line) => line.msg === 'failing over to another upstream')
  t.match(failover, { level: 40, upstream: slow.url, next: second.url }, 'a warn line names the upstream left and the next one')
  t.ok(
    log.lines.some(
      (line) => line.level === 40 && line.upstream === slow.url && typeof line.nextAttempt === 'string' && typeof line.reason === 'string',
    ),
    'the failed request is a warn line with the upstream, the reason and the next attempt',
  )
  const ready = JSON.parse((await getText(`${follower.url}/ready`)).text) as ReadyBody
  t.match(ready.upstreams, [
    { url: slow.url, state: 'retrying' },
    { url: second.url, state: 'active' },
  ])
})

t.test('an upstream answering 429 with Retry-After is left alone that long', async (t) => {
  const upstream = await startNode(t, { data: await filledData(t, 300, 'retry-after') })
  let refusedAt = 0
  const proxy = await startProxy(t, upstream.url, {
    intercept: (req, res) => {
      if (refusedAt > 0 || !/\/block\?/.test(req.url ?? '')) return false
      refusedAt = Date.now()
      res.writeHead(429, { 'retry-after': '1', 'content-type': 'text/plain' })
      res.end('slow down')
      return true
    },
  })
  // One request at a time: every request after the refusal was sent after it.
  const { server: follower, log } = await startFollower(t, [proxy.url], { ingestConcurrency: 1 })
  t.ok(await eventually(() => caughtUp(upstream, follower)), 'the follower caught up')
  const after = proxy.requests.filter((request) => request.at > refusedAt)
  t.ok(refusedAt > 0 && after.length > 0, 'one request was refused, later ones came')
  t.ok(after[0]!.at - refusedAt >= 990, `the next request came ${after[0]!.at - refusedAt} ms after the 429`)
  t.match(
    log.lines.find((line) => line.code === 'HTTP_ERROR'),
    { level: 40, upstream: proxy.url, delayMs: 1000, reason: /429/, nextAttempt: String },
    'a warn line says how long it waits',
  )
  await assertSameNode(t, upstream, follower, base)
})

t.test('a block with a wrong hash is rejected, logged, never stored, and its upstream shows demoted', async (t) => {
  const upstream = await startNode(t, { data: await filledData(t, 300, 'wrong-hash') })
  const victim = [...upstream.store.cut().values()][3]!
  // The ancestor at height 4 of chain 3's head: the proxy changes one character of its hash.
  const ref = await upstream.store.ancestorAt(victim.hash, 4)
  const real = encodeHash(ref!.hash)
  const altered = `${real[0] === 'A' ? 'B' : 'A'}${real.slice(1)}`
  const proxy = await startProxy(t, upstream.url, { rewrite: (_path, body) => body.replaceAll(`"hash":"${real}"`, `"hash":"${altered}"`) })
  const { server: follower, log } = await startFollower(t, [proxy.url])
  t.ok(
    await eventually(async () => {
      const { status, text } = await getText(`${follower.url}/ready`)
      const body = JSON.parse(text) as ReadyBody
      return status === 503 && body.upstreams[0]?.state === 'demoted' && body.upstreams[0].lastError?.code === 'INVALID_BLOCK'
    }),
    '/ready is 503 and shows the upstream demoted for INVALID_BLOCK',
  )
  t.match(
    log.lines.find((line) => line.code === 'INVALID_BLOCK'),
    { level: 50, upstream: proxy.url, reason: new RegExp(altered) },
  )
  t.equal(await follower.store.getHeader(Buffer.from(altered, 'base64url')), undefined, 'the altered block is not stored')
  t.equal(await follower.store.getHeader(ref!.hash as Buffer), undefined, 'nor is the block it stood for')
  t.ok((follower.ingest?.status().rejected ?? 0) >= 1, 'counted as rejected')
})
