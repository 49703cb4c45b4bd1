import t from 'tap'
import { createIngest } from '../src/index.js'
import { serveContract } from './fixtures/contract-server.js'
import { cutOf, eventually, filledStore, followerStore, storedHashes } from './fixtures/stores.js'

t.test('an empty store copies an upstream with forks and stands on its cut', async (t) => {
  const source = await filledStore(t, 2000)
  const upstream = await serveContract(t, source, 'spec')
  const store = await followerStore(t)
  const events: unknown[] = []
  const ingest = createIngest({ store, upstreams: [upstream.url], onEvent: (e) => events.push(e) })
  t.teardown(() => ingest.stop())
  const started = Date.now()
  await ingest.start()
  t.ok(await eventually(() => ingest.status().ready), 'ready')
  t.comment(`caught up in ${Date.now() - started} ms`)
  t.same(cutOf(store), cutOf(source), 'the same cut')
  t.same(await storedHashes(store), await storedHashes(source), 'the same blocks, orphans included')
  t.comment(JSON.stringify(events.slice(-2)))
  t.comment(JSON.stringify(ingest.status(), (_key, v) => (v instanceof Map ? Object.fromEntries(v) : v)))
})
