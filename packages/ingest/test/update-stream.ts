import { fill } from '@weft/devnet'
import { cutOf, eventually, followerStore, storedHashes } from '@weft/test-kit'
import t, { type Test } from 'tap'
import { createIngest, type IngestOptions } from '../src/index.js'
import { answerStream, type ContractServer, refuseStream, serveContract } from './fixtures/contract-server.js'
import { collectingLogger, quick } from './fixtures/ingests.js'
import { filledStore } from './fixtures/stores.js'

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

// The most streams a backoff from 20 ms up to 400 ms lets open in `ms`: each wait is at least half
// its step (10, 20, 40, 80, 160, then 200 ms), however busy the machine; a stream opened at each
// retryDelay would be ten times as many.
const atMostOpened = (ms: number): number => 6 + ms / 200

t.test('an upstream without an update stream is followed by reading its cut', async (t) => {
  const source = await filledStore(t, 100, { seed: 'no-stream' })
  const upstream = await serveContract(t, source)
  refuseStream(upstream)
  const { store, lines } = await follower(t, upstream, source)
  await fill(source, { blocks: 40, seed: 'no-stream-more' })
  t.ok(await eventually(() => same(store, source)), 'followed by polls')
  t.ok(lines.some((line) => line.message.startsWith('update stream refused')))
})

t.test('a stream that goes silent, or says nothing a block, is opened again; the cut is read meanwhile', async (t) => {
  const source = await filledStore(t, 100, { seed: 'silent' })
  const upstream = await serveContract(t, source)
  const { opened } = answerStream(upstream, (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    res.write('event:BlockHeader\ndata:{"header":{"chainId":0}}\n\nevent:Other\ndata:{}\n\n')
  })
  const { store, lines } = await follower(t, upstream, source, { streamIdleTimeout: 150 })
  await fill(source, { blocks: 40, seed: 'silent-more' })
  t.ok(await eventually(() => same(store, source)), 'followed by polls')
  t.ok(await eventually(() => opened() >= 2), 'opened again')
  t.match(
    lines.find((line) => line.message === 'update stream ended; reconnecting'),
    { level: 'warn', fields: { upstream: upstream.url, reason: 'no byte for 150 ms', nextAttempt: String } },
  )
  t.match(
    lines.find((line) => line.message.startsWith('update event ignored')),
    { fields: { reason: /no chainId, height and hash/ } },
  )
})

t.test(
  'when the upstream restarts, the follower reconnects and catches up, orphans included; a copy only if the stream gave events',
  async (t) => {
    const source = await filledStore(t, 100, { seed: 'restart' })
    let upstream = await serveContract(t, source)
    const { store, ingest, lines } = await follower(t, upstream, source)
    const copies = (): number => lines.filter((line) => line.message === 'copied up to the upstream cut').length
    const sameBlocks = async (): Promise<boolean> =>
      JSON.stringify(await storedHashes(store)) === JSON.stringify(await storedHashes(source))
    const restart = async (seed: string): Promise<void> => {
      const { port } = upstream
      await upstream.close()
      await fill(source, { blocks: 60, forkRate: 0.3, seed })
      upstream = await serveContract(t, source, 'spec', port)
    }
    // Nothing was announced before the restart: the steps after the reconnection read the cut and sweep.
    const before = copies()
    await restart('restart-quiet')
    t.ok(await eventually(() => same(store, source)), 'caught up after the restart')
    t.ok(await eventually(sameBlocks), 'orphans too')
    // Time for a copy the reconnection would have started to end.
    await new Promise((resolve) => setTimeout(resolve, 1000))
    t.equal(copies(), before, 'no copy: the stream before gave no event')
    t.ok(ingest.status().retries > 0, 'with retries')
    // Blocks announced, then a restart: what the stream would have announced meanwhile is copied.
    await fill(source, { blocks: 20, seed: 'restart-announced' })
    t.ok(await eventually(() => same(store, source)), 'followed the announced blocks')
    await restart('restart-busy')
    t.ok(await eventually(() => same(store, source) && copies() > before), 'caught up by a copy')
    t.ok(await eventually(sameBlocks), 'orphans too')
    t.equal(ingest.status().phase, 'following')
  },
)

t.test('a stream that gave events and came back while a copy ran is followed by a copy of its own', async (t) => {
  const source = await filledStore(t, 100, { seed: 'back-during-copy' })
  const upstream = await serveContract(t, source)
  let streams = 0
  // Pages answer slowly, so that the first copy is still running when the stream comes back; the
  // first stream gives an event and ends, the ones after it are the upstream's own.
  upstream.intercept = async (_req, res, path) => {
    if (path.endsWith('/header/updates')) {
      streams += 1
      if (streams > 1) return false
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write('event:Other\ndata:{}\n\n')
      setTimeout(() => res.end(), 20)
      return true
    }
    if (path.includes('/block')) await new Promise((resolve) => setTimeout(resolve, 150))
    return false
  }
  const store = await followerStore(t)
  const { logger, lines } = collectingLogger()
  const ingest = createIngest({ ...quick, store, upstreams: [upstream.url], logger })
  t.teardown(() => ingest.stop())
  await ingest.start()
  const copies = () => lines.filter((line) => line.message === 'copied up to the upstream cut')
  t.ok(await eventually(() => copies().length >= 2), 'a second copy ran')
  const [first, second] = copies()
  t.ok(streams >= 2 && first !== undefined && (first.fields.ms as number) > 300, 'the stream came back during the first copy')
  t.equal(second?.fields.inserted, 0, 'the first copy had everything: the second only checked')
  t.ok(await eventually(() => same(store, source)), 'caught up')
})

t.test('a stream that answers and ends at once is opened again after a growing backoff, and starts no copy', async (t) => {
  const source = await filledStore(t, 100, { seed: 'ends' })
  const upstream = await serveContract(t, source)
  const { opened } = answerStream(upstream, (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    res.end()
  })
  const started = Date.now()
  const { store, lines } = await follower(t, upstream, source, { retryDelay: 20, maxRetryDelay: 400 })
  const endings = () => lines.filter((line) => line.message === 'update stream ended; reconnecting')
  t.ok(await eventually(() => endings().length >= 4), 'four streams ended')
  t.ok(opened() <= atMostOpened(Date.now() - started), `${opened()} streams opened in ${Date.now() - started} ms`)
  const ended = endings().slice(0, 4)
  t.same(
    ended.map((line) => line.fields.attempt),
    [1, 2, 3, 4],
    'each empty stream in a row counts',
  )
  // Between half and all of 20, 40, 80, 160 ms.
  for (const [index, line] of ended.entries()) t.ok((line.fields.delayMs as number) >= 10 * 2 ** index, `delay ${line.fields.delayMs} ms`)
  t.equal(lines.filter((line) => line.message === 'copied up to the upstream cut').length, 1, 'one copy: the first')
  await fill(source, { blocks: 40, forkRate: 0.3, seed: 'ends-more' })
  t.ok(await eventually(() => same(store, source)), 'followed by polls')
})

t.test('a stream that gives an event and ends at once is opened again after a growing backoff, each copy after one', async (t) => {
  const source = await filledStore(t, 100, { seed: 'one-event' })
  const upstream = await serveContract(t, source)
  const { opened } = answerStream(upstream, (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    res.end('event:Other\ndata:{}\n\n')
  })
  // A stream shorter than the poll interval is short-lived: 2 s, which one that ends at once takes on no machine.
  const started = Date.now()
  const { lines } = await follower(t, upstream, source, { retryDelay: 20, maxRetryDelay: 400, pollInterval: 2000 })
  const copies = (): number => lines.filter((line) => line.message === 'copied up to the upstream cut').length
  const endings = () => lines.filter((line) => line.message === 'update stream ended; reconnecting')
  t.ok(await eventually(() => endings().length >= 4), 'four streams ended')
  t.ok(opened() <= atMostOpened(Date.now() - started), `${opened()} streams opened in ${Date.now() - started} ms`)
  t.ok(copies() <= opened(), `${copies()} copies, at most one per stream`)
  const ended = endings().slice(0, 4)
  t.same(
    ended.map((line) => [line.fields.events, line.fields.attempt]),
    [
      [1, 1],
      [1, 2],
      [1, 3],
      [1, 4],
    ],
    'each short stream in a row counts, though it gave an event',
  )
})

t.test('a stream line past the bound ends the stream as a bad response and demotes its upstream', async (t) => {
  const source = await filledStore(t, 50, { seed: 'endless-line' })
  const upstream = await serveContract(t, source)
  answerStream(upstream, (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    res.write('data:')
    // 2 MiB without a line end, then silence: the stream stays open.
    for (let i = 0; i < 32; i++) res.write('x'.repeat(64 * 1024))
  })
  const { ingest, lines } = await follower(t, upstream, source)
  t.ok(await eventually(() => ingest.status().upstreams[0]?.state === 'demoted'), 'demoted')
  t.match(
    lines.find((line) => line.message === 'update stream ended; reconnecting'),
    { fields: { reason: /at most 1048576 characters/, attempt: 1 } },
  )
  t.match(ingest.status().upstreams[0], { lastError: { code: 'INVALID_RESPONSE' } })
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
