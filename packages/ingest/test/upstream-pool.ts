import { fill } from '@weft/devnet'
import { followerStore } from '@weft/test-kit'
import t, { type Test } from 'tap'
import { UpstreamResponseError } from '../src/errors.js'
import { HttpClient } from '../src/http-client.js'
import { UpstreamPool, type UpstreamPoolOptions } from '../src/upstream-pool.js'
import { serveContract } from './fixtures/contract-server.js'
import { collectingLogger } from './fixtures/ingests.js'
import { filledStore } from './fixtures/stores.js'

function pool(t: Test, urls: string[], options: Partial<UpstreamPoolOptions> = {}) {
  const http = new HttpClient({ timeoutMs: 1000, maxSockets: 4 })
  t.teardown(() => http.close())
  const { logger, lines } = collectingLogger()
  const made = new UpstreamPool({
    urls,
    http,
    network: 'development',
    profile: undefined,
    checkResponses: false,
    logger,
    backoff: { baseMs: 20, maxMs: 100 },
    demoteMs: 60_000,
    attempts: Number.POSITIVE_INFINITY,
    random: () => 0.5,
    ...options,
  })
  return { pool: made, lines, signal: new AbortController().signal }
}

t.test('requests fail over to the next upstream, each failure and the failover a warn line', async (t) => {
  const store = await followerStore(t)
  const first = await serveContract(t, store)
  const second = await serveContract(t, store)
  const { pool: upstreams, lines, signal } = pool(t, [first.url, second.url])
  await upstreams.discoverAll(signal)
  t.match(upstreams.status(), [{ state: 'standby', network: 'development', profile: 'spec' }, { state: 'standby' }])
  const asked: string[] = []
  const cut = (what: string) =>
    upstreams.use(
      what,
      async (api, entry) => {
        asked.push(entry.url)
        return api.cut(undefined, signal)
      },
      signal,
    )
  await cut('cut')
  t.equal(upstreams.current?.url, first.url, 'the first in order')
  await first.close()
  t.equal((await cut('cut')).size, 20, 'answered by the second')
  t.same(asked, [first.url, first.url, second.url])
  t.match(upstreams.status(), [
    { url: first.url, state: 'retrying', lastError: { code: 'NETWORK_ERROR' }, retries: 1 },
    { url: second.url, state: 'active' },
  ])
  t.match(lines, [
    { level: 'info', message: 'upstream reached' },
    { level: 'info', message: 'upstream reached' },
    {
      level: 'warn',
      message: /failed; retrying/,
      fields: { upstream: first.url, during: 'cut', attempt: 1, delayMs: Number, nextAttempt: String },
    },
    { level: 'warn', message: 'failing over to another upstream', fields: { upstream: first.url, next: second.url } },
  ])
  t.equal(upstreams.failovers, 1)
  t.equal(upstreams.retries, 1)
})

t.test('concurrent requests that fail in one outage count it once; attempts bound the tries', async (t) => {
  const { pool: upstreams, lines, signal } = pool(t, ['http://127.0.0.1:1'], { attempts: 3 })
  await upstreams.discoverAll(signal)
  t.match(upstreams.status(), [{ state: 'retrying', lastError: { code: 'NETWORK_ERROR' } }], 'unreachable at start: not refused')
  const started = Date.now()
  await t.rejects(
    upstreams.use('x', async () => 1, signal),
    { code: 'NETWORK_ERROR' },
  )
  t.ok(Date.now() - started >= 20, 'it waited for the backoff between tries')
  t.ok(lines.filter((line) => line.level === 'warn').length >= 3)
})

t.test('an upstream that answers out of contract is demoted: last in line, its state says so', async (t) => {
  const store = await followerStore(t)
  const first = await serveContract(t, store)
  const second = await serveContract(t, store)
  const { pool: upstreams, lines, signal } = pool(t, [first.url, second.url])
  await t.rejects(
    upstreams.use(
      'page',
      async () => {
        throw new UpstreamResponseError('garbage')
      },
      signal,
    ),
    { code: 'UPSTREAM_BAD_RESPONSE' },
  )
  t.match(upstreams.status(), [{ state: 'demoted', lastError: { code: 'UPSTREAM_BAD_RESPONSE' } }, { state: 'pending' }])
  t.match(lines.at(-1), { level: 'error', message: /demoted/, fields: { upstream: first.url, demotedUntil: String } })
  t.equal(await upstreams.use('cut', async (_api, entry) => entry.url, signal), second.url, 'the other one is asked')
  const alone = pool(t, [first.url])
  await t.rejects(alone.pool.use('x', async () => Promise.reject(new UpstreamResponseError('bad')), signal))
  t.equal(
    await alone.pool.use('x', async (_api, entry) => entry.url, signal),
    first.url,
    'a demoted upstream still serves when it is the only one',
  )
})

t.test('an upstream of another network is refused for good; when all are, the refusal is thrown', async (t) => {
  const other = await serveContract(t, await followerStore(t, 'test-singleton'))
  const { pool: upstreams, lines, signal } = pool(t, [other.url])
  await t.rejects(upstreams.discoverAll(signal), { code: 'UPSTREAM_NETWORK_MISMATCH' })
  t.match(upstreams.status(), [{ state: 'refused' }])
  await t.rejects(
    upstreams.use('x', async () => 1, signal),
    { code: 'UPSTREAM_NETWORK_MISMATCH' },
  )
  t.match(lines.at(-1), { level: 'error', message: /refused/ })
  const later = pool(t, [other.url, `${other.url}/chain/0.0/development`])
  await t.rejects(
    later.pool.use('x', async () => 1, signal),
    { code: 'UPSTREAM_NETWORK_MISMATCH' },
    'found refused when first used',
  )
  t.match(later.pool.status(), [{ state: 'refused' }, { state: 'refused' }])
  const aborted = new AbortController()
  aborted.abort()
  await t.rejects(
    later.pool.use('x', async () => 1, aborted.signal),
    { code: 'INGEST_STOPPED' },
  )
})

t.test('probes read the other upstreams cuts; one ahead by more than the lag takes over', async (t) => {
  const behind = await filledStore(t, 100, { seed: 'probe' })
  const ahead = await filledStore(t, 100, { seed: 'probe' })
  await fill(ahead, { blocks: 200, seed: 'probe-ahead' })
  const slow = await serveContract(t, behind)
  const fast = await serveContract(t, ahead)
  const { pool: upstreams, lines, signal } = pool(t, [slow.url, fast.url, 'http://127.0.0.1:1'])
  await upstreams.use(
    'cut',
    async (api, entry) => {
      entry.cut = { heads: await api.cut(undefined, signal), at: Date.now() }
    },
    signal,
  )
  t.notOk(upstreams.preferAhead(3), 'nothing known of the others yet')
  await upstreams.probe(signal)
  t.match(upstreams.status(), [{ state: 'active', cut: Map }, { state: 'standby', cut: Map }, { state: 'retrying' }])
  t.notOk(upstreams.preferAhead(100), 'within the lag')
  t.ok(upstreams.preferAhead(3))
  t.equal(upstreams.current?.url, fast.url)
  t.match(lines.at(-1), { message: 'failing over to another upstream', fields: { reason: /ahead/ } })
  const broken = await serveContract(t, ahead)
  broken.intercept = (_req, res, path) => {
    if (!path.endsWith('/cut')) return false
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end('{"hashes":1}')
    return true
  }
  const judged = pool(t, [slow.url, broken.url])
  await judged.pool.use('x', async () => 1, signal)
  await judged.pool.probe(signal)
  t.match(judged.pool.status()[1], { state: 'demoted' }, 'a probe answered out of contract demotes')
})

t.test('Retry-After sets a floor under the backoff: 0, or a date already past, is not asked again at once', async (t) => {
  const store = await followerStore(t)
  for (const retryAfter of ['0', new Date(Date.now() - 5000).toUTCString()]) {
    const busy = await serveContract(t, store)
    let asked = 0
    busy.intercept = (_req, res, path) => {
      if (path === '/info') return false
      asked += 1
      res.writeHead(503, { 'retry-after': retryAfter, 'content-type': 'text/plain' })
      res.end('busy')
      return true
    }
    const { pool: upstreams, lines, signal } = pool(t, [busy.url], { attempts: 3, backoff: { baseMs: 100, maxMs: 1000 } })
    const started = Date.now()
    await t.rejects(
      upstreams.use('cut', (api) => api.cut(undefined, signal), signal),
      { code: 'HTTP_ERROR' },
    )
    t.equal(asked, 3, `Retry-After: ${retryAfter}`)
    // random 0.5: 75 ms after the first failure, 150 after the second.
    t.ok(Date.now() - started >= 225, 'it waited out the backoff between tries')
    t.same(
      lines.filter((line) => line.level === 'warn').map((line) => line.fields.delayMs),
      [75, 150, 300],
    )
  }
})

t.test('a Retry-After longer than the backoff is honoured', async (t) => {
  const store = await followerStore(t)
  const busy = await serveContract(t, store)
  busy.intercept = (_req, res, path) => {
    if (path === '/info') return false
    res.writeHead(429, { 'retry-after': '2', 'content-type': 'text/plain' })
    res.end('slow down')
    return true
  }
  const { pool: upstreams, lines, signal } = pool(t, [busy.url], { attempts: 1 })
  await t.rejects(
    upstreams.use('cut', (api) => api.cut(undefined, signal), signal),
    { code: 'HTTP_ERROR', message: /received 429/ },
  )
  t.match(lines.at(-1), { level: 'warn', message: /Retry-After/, fields: { delayMs: 2000 } })
})
