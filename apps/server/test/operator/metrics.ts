import { readdirSync } from 'node:fs'
import { createServer, get } from 'node:http'
import { connect } from 'node:net'
import { fill } from '@weft/devnet'
import { openStore } from '@weft/store'
import { until } from '@weft/test-kit'
import t from 'tap'
import { trackChainActivity } from '../../src/operator/chain-activity.js'
import { createMetrics } from '../../src/operator/metrics.js'
import { eventFrame } from '../../src/streams/event-frames.js'
import { EventHub } from '../../src/streams/event-hub.js'
import { send, startNode } from '../fixtures/node.js'
import { parsePrometheus, sampleValue } from '../fixtures/prometheus.js'

const sum = (families: ReturnType<typeof parsePrometheus>, name: string): number =>
  (families.get(name)?.samples ?? []).filter((sample) => sample.name === name).reduce((total, sample) => total + sample.value, 0)

t.test('/metrics is Prometheus text whose figures move with traffic and blocks', async (t) => {
  const server = await startNode(t, { data: t.testdir(), network: 'development', profile: 'chainweb' })
  const scrape = async () => {
    const response = await send(`${server.url}/metrics`)
    t.equal(response.status, 200)
    t.equal(response.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8')
    return parsePrometheus(response.body.toString())
  }
  const before = await scrape()
  t.equal(sampleValue(before, 'weft_cut_height'), 0, 'genesis only')
  t.equal(before.get('weft_chain_height')?.samples.length, 20, 'a height per chain of the cut')
  t.ok(before.get('process_cpu_user_seconds_total') && before.get('nodejs_heap_size_used_bytes'), 'the process defaults')
  const subscriber = await new Promise<{ close: () => void }>((resolve, reject) => {
    const req = get(`${server.url}/chainweb/0.0/development/header/updates`, { agent: false }, (res) => {
      res.resume()
      resolve({ close: () => req.destroy() })
    }).on('error', reject)
  })
  t.teardown(() => subscriber.close())
  await until(() => server.eventClients().header === 1, 'the header stream open')
  const route = '/chainweb/0.0/development/chain/:chain/block'
  for (let i = 0; i < 3; i++) await send(`${server.url}/chainweb/0.0/development/chain/${i}/block?limit=1`)
  await send(`${server.url}/nowhere`)
  const summary = await fill(server.store, { blocks: 100, forkRate: 0.3, seed: 'metrics' })
  const after = await scrape()
  t.equal(sampleValue(after, 'weft_http_requests_total', { method: 'GET', route, status: '200' }), 3, 'requests by route and status')
  t.equal(sampleValue(after, 'weft_http_request_duration_seconds_count', { method: 'GET', route, status: '200' }), 3, 'and their durations')
  t.equal(sampleValue(after, 'weft_http_requests_total', { route: 'unmatched', status: '404' }), 1)
  t.equal(sampleValue(after, 'weft_http_requests_total', { route: '/metrics', status: '200' }), 1, 'the first scrape')
  t.equal(sampleValue(after, 'weft_event_stream_subscribers', { stream: 'header' }), 1)
  t.equal(sum(after, 'weft_blocks_inserted_total'), summary.blocks, 'every block written, by chain')
  const heights = [...server.store.cut()].map(([chain, header]) => [chain, header.height])
  for (const [chain, height] of heights) t.equal(sampleValue(after, 'weft_chain_height', { chain: String(chain) }), height)
  t.equal(
    sampleValue(after, 'weft_cut_height'),
    heights.reduce((total, [, height]) => total + height!, 0),
  )
  t.ok(sampleValue(after, 'weft_blocks_per_second')! > 0, 'blocks per second')
  await until(
    async () => sampleValue(await scrape(), 'weft_events_sent_total', { stream: 'header' })! > 0,
    'a header event counted as sent',
  )
  const delivered = await scrape()
  const deliveries = sampleValue(delivered, 'weft_event_stream_delivery_seconds_count', { stream: 'header' })!
  t.ok(deliveries > 0, `announcements delivered to every subscriber: ${deliveries}`)
  t.ok(deliveries <= sampleValue(delivered, 'weft_events_sent_total', { stream: 'header' })!, 'at most one per event')
  const status = (await send(`${server.url}/status`)).body.toString()
  t.equal(sum(after, 'weft_reorgs_total'), Math.min(20, (JSON.parse(status) as { reorgs: unknown[] }).reorgs.length), 'reorgs counted')
})

t.test("the store's LevelDB levels, what it wrote and its memory", async (t) => {
  const data = t.testdir()
  const filled = await openStore({ path: data, network: 'development' })
  await fill(filled, { blocks: 2000, forkRate: 0, seed: 'engine' })
  await filled.close()
  // Opening again replays the log of those blocks into a level-0 table of a few MiB.
  const server = await startNode(t, { data, network: 'development' })
  const families = parsePrometheus((await send(`${server.url}/metrics`)).body.toString())
  const tables = readdirSync(data).filter((name) => name.endsWith('.ldb')).length
  t.ok(tables > 0)
  t.equal(sum(families, 'weft_store_level_files'), tables, 'every table file, by level')
  const levels = server.store.engineStats!().levels
  for (const level of levels) {
    t.equal(sampleValue(families, 'weft_store_level_bytes', { level: String(level.level) }), level.mebibytes * 2 ** 20)
  }
  const written = sampleValue(families, 'weft_store_written_bytes_total')!
  t.ok(written >= 2 ** 20, `the replayed log was written: ${written} bytes`)
  t.equal(written, levels.reduce((total, level) => total + level.writtenMiB, 0) * 2 ** 20)
  t.equal(sampleValue(families, 'weft_store_compaction_read_bytes_total'), 0, 'no compaction yet')
  t.ok(sampleValue(families, 'weft_store_engine_memory_bytes')! > 0)
})

t.test('the ingest hooks show lag, retries, upstream states, last contact and refused blocks by code', async (t) => {
  const server = await startNode(t, { data: t.testdir(), network: 'test-singleton' })
  const upstream = 'http://127.0.0.1:1848'
  server.metrics.ingest.setLag(0, 7)
  server.metrics.ingest.countRetry(upstream)
  server.metrics.ingest.countRetry(upstream)
  server.metrics.ingest.setUpstreamState(upstream, 'syncing')
  server.metrics.ingest.setUpstreamState(upstream, 'following')
  server.metrics.ingest.setLastContact(upstream, 1_700_000_000_000)
  server.metrics.ingest.countRefusal('INVALID_TARGET')
  server.metrics.ingest.countRefusal('INVALID_TARGET')
  server.metrics.ingest.countRefusal('INVALID_POW')
  const families = parsePrometheus((await send(`${server.url}/metrics`)).body.toString())
  t.equal(sampleValue(families, 'weft_ingest_lag_heights', { chain: '0' }), 7)
  t.equal(sampleValue(families, 'weft_upstream_retries_total', { upstream }), 2)
  t.equal(sampleValue(families, 'weft_upstream_state', { upstream, state: 'following' }), 1)
  t.equal(sampleValue(families, 'weft_upstream_state', { upstream, state: 'syncing' }), 0)
  t.equal(sampleValue(families, 'weft_upstream_last_contact_seconds', { upstream }), 1_700_000_000)
  t.equal(sampleValue(families, 'weft_ingest_refused_blocks_total', { code: 'INVALID_TARGET' }), 2)
  t.equal(sampleValue(families, 'weft_ingest_refused_blocks_total', { code: 'INVALID_POW' }), 1)
})

t.test('a slow client cut off by an event hub is counted', async (t) => {
  const store = await openStore({ path: t.testdir(), network: 'test-singleton' })
  const activity = trackChainActivity(store)
  t.teardown(async () => {
    activity.close()
    await store.close()
  })
  const metrics = createMetrics({ store, activity, subscribers: () => ({ header: hub.size, block: 0 }) })
  const hub = new EventHub({ keepAliveMs: 0, maxBacklogBytes: 64 * 1024, observer: metrics.hubObserver('header') })
  const server = createServer((_req, res) => hub.attach(res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  // A raw socket that sends its request and then never reads a byte.
  const stalled = connect((server.address() as { port: number }).port, '127.0.0.1')
  stalled.pause()
  stalled.on('error', () => {})
  stalled.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
  t.teardown(() => stalled.destroy())
  await until(() => hub.size === 1, 'one client in the hub')
  const frame = eventFrame('BlockHeader', [JSON.stringify({ pad: 'x'.repeat(64 * 1024) })])
  let published = 0
  while (hub.size === 1 && published < 2000) {
    hub.publish(frame)
    published++
    await new Promise((resolve) => setTimeout(resolve, 1))
  }
  const families = parsePrometheus(await metrics.render())
  t.equal(sampleValue(families, 'weft_event_stream_slow_disconnects_total', { stream: 'header' }), 1)
  t.equal(sampleValue(families, 'weft_events_sent_total', { stream: 'header' }), published)
  t.equal(sampleValue(families, 'weft_event_stream_subscribers', { stream: 'header' }), 0)
})

t.test('the parser is strict', async (t) => {
  t.throws(() => parsePrometheus('x 1\n'), /Expected # TYPE/)
  t.throws(() => parsePrometheus('# TYPE x gauge\nx{a="1",a="2"} 1\n'), /each label once/)
  t.throws(() => parsePrometheus('# TYPE x gauge\nx one\n'), /Expected a number/)
  t.throws(() => parsePrometheus('# TYPE x gauge\ny 1\n'), /Expected a sample of x/)
  t.throws(() => parsePrometheus('# TYPE x gauge\nx 1'), /newline/)
  t.throws(() => parsePrometheus('# TYPE h histogram\nh_bucket{le="1"} 2\nh_count 2\nh_sum 1\n'), /\+Inf/)
  t.same(parsePrometheus('# HELP x a "q"\n# TYPE x gauge\nx{a="b\\"c"} +Inf\n').get('x'), {
    type: 'gauge',
    help: 'a "q"',
    samples: [{ name: 'x', labels: { a: 'b"c' }, value: Number.POSITIVE_INFINITY }],
  })
})
