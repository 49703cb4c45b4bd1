import { fill } from '@weft/devnet'
import t, { type Test } from 'tap'
import { createIngest, type IngestOptions } from '../src/index.js'
import { type ContractServer, serveContract } from './fixtures/contract-server.js'
import { collectingLogger, quick } from './fixtures/ingests.js'
import { cutOf, eventually, filledStore, followerStore } from './fixtures/stores.js'

// A follower of `upstream` (over `source`), started and caught up; its log kept.
async function follower(t: Test, upstream: ContractServer, source: Parameters<typeof cutOf>[0], options: Partial<IngestOptions> = {}) {
  const store = await followerStore(t)
  const { logger, lines } = collectingLogger()
  const ingest = createIngest({ ...quick, ...options, store, upstreams: [upstream.url], logger })
  t.teardown(() => ingest.stop())
  await ingest.start()
  t.ok(await eventually(() => JSON.stringify(cutOf(store)) === JSON.stringify(cutOf(source))), 'caught up')
  return { store, ingest, lines }
}

const same = (a: Parameters<typeof cutOf>[0], b: Parameters<typeof cutOf>[0]) => JSON.stringify(cutOf(a)) === JSON.stringify(cutOf(b))

t.test('an upstream without an update stream is followed by reading its cut', async (t) => {
  const source = await filledStore(t, 100, { seed: 'no-stream' })
  const upstream = await serveContract(t, source)
  upstream.intercept = (_req, res, path) => {
    if (!path.endsWith('/header/updates')) return false
    res.writeHead(404, { 'content-type': 'text/plain' })
    res.end('no such thing')
    return true
  }
  const { store, lines } = await follower(t, upstream, source)
  await fill(source, { blocks: 40, seed: 'no-stream-more' })
  t.ok(await eventually(() => same(store, source)), 'followed by polls')
  t.ok(lines.some((line) => line.message.startsWith('update stream refused')))
})

t.test('a stream that goes silent, or says nothing a block, is opened again; the cut is read meanwhile', async (t) => {
  const source = await filledStore(t, 100, { seed: 'silent' })
  const upstream = await serveContract(t, source)
  let opened = 0
  upstream.intercept = (_req, res, path) => {
    if (!path.endsWith('/header/updates')) return false
    opened += 1
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    res.write('event:BlockHeader\ndata:{"header":{"chainId":0}}\n\nevent:Other\ndata:{}\n\n')
    return true
  }
  const { store, lines } = await follower(t, upstream, source, { streamIdleTimeout: 150 })
  await fill(source, { blocks: 40, seed: 'silent-more' })
  t.ok(await eventually(() => same(store, source)), 'followed by polls')
  t.ok(await eventually(() => opened >= 2), 'opened again')
  t.match(
    lines.find((line) => line.message === 'update stream ended; reconnecting'),
    { level: 'warn', fields: { upstream: upstream.url, reason: 'no byte for 150 ms', nextAttempt: String } },
  )
  t.match(
    lines.find((line) => line.message.startsWith('update event ignored')),
    { fields: { reason: /no chainId, height and hash/ } },
  )
})

t.test('when the stream ends or its upstream restarts, the follower reconnects and copies again', async (t) => {
  const source = await filledStore(t, 100, { seed: 'restart' })
  let upstream = await serveContract(t, source)
  const { store, ingest } = await follower(t, upstream, source)
  const { port } = upstream
  await upstream.close()
  await fill(source, { blocks: 60, forkRate: 0.3, seed: 'restart-more' })
  upstream = await serveContract(t, source, 'spec', port)
  t.ok(await eventually(() => same(store, source)), 'caught up after the restart')
  t.ok(ingest.status().retries > 0, 'with retries')
  t.ok(await eventually(() => ingest.status().phase === 'following'), 'following again after the copy')
})

t.test('a store that fails ends ingest', async (t) => {
  const source = await filledStore(t, 50, { seed: 'closing' })
  const upstream = await serveContract(t, source)
  const { store, ingest, lines } = await follower(t, upstream, source)
  await store.close()
  await fill(source, { blocks: 20, seed: 'closing-more' })
  await t.rejects(ingest.done, { code: 'STORE_CLOSED' })
  t.equal(ingest.status().phase, 'failed')
  t.ok(lines.some((line) => line.level === 'error' && line.message === 'ingest stopped by a failure'))
})
