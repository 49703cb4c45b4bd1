import { openStore } from '@weft/store'
import { followerStore, freshFolder } from '@weft/test-kit'
import t from 'tap'
import { resolveIngestOptions } from '../src/options.js'

t.test('defaults are filled in', async (t) => {
  const store = await followerStore(t)
  const settings = resolveIngestOptions({ store, upstreams: ['http://127.0.0.1:1'] })
  t.match(settings, {
    concurrency: 4,
    pageSize: 360,
    windowBlocks: 2048,
    resumeMargin: 16,
    follow: true,
    failFast: false,
    attempts: Number.POSITIVE_INFINITY,
    maxLag: 3,
    staleAfter: 120_000,
    checkResponses: false,
    profile: undefined,
  })
  t.equal(typeof settings.logger.warn, 'function')
})

t.test('values out of range are refused with INVALID_INGEST_OPTION', async (t) => {
  const store = await followerStore(t)
  const upstreams = ['http://127.0.0.1:1']
  const forkChoice = await openStore({ path: freshFolder(t), network: 'development' })
  t.teardown(() => forkChoice.close())
  t.throws(() => resolveIngestOptions({ store: forkChoice, upstreams }), {
    code: 'INVALID_INGEST_OPTION',
    message: /cutPolicy 'adopted'.*fork-choice/,
  })
  t.throws(() => resolveIngestOptions({ store, upstreams: [] }), { message: /at least one URL/ })
  t.throws(() => resolveIngestOptions({ store, upstreams, concurrency: 0 }), {
    message: /concurrency to be a positive integer, received 0/,
  })
  t.throws(() => resolveIngestOptions({ store, upstreams, pageSize: 1.5 }), { message: /pageSize/ })
  t.throws(() => resolveIngestOptions({ store, upstreams, resumeMargin: -1 }), { message: /resumeMargin to be a non-negative integer/ })
  t.throws(() => resolveIngestOptions({ store, upstreams, attempts: 0 }), { message: /attempts to be a positive integer or Infinity/ })
  t.throws(() => resolveIngestOptions({ store, upstreams, profile: 'other' as never }), {
    message: /profile to be spec or chainweb, received "other"/,
  })
  t.equal(resolveIngestOptions({ store, upstreams, maxLag: 0, attempts: 3 }).attempts, 3)
})
