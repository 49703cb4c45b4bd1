import { once } from 'node:events'
import { fill } from '@weft/devnet'
import { openStore } from '@weft/store'
import { blocksOf, cutOf, eventually, followerStore, freshFolder, storedHashes } from '@weft/test-kit'
import t, { type Test } from 'tap'
import { createIngest } from '../src/index.js'
import { serveContract } from './fixtures/contract-server.js'
import { collectingLogger, quick, stillRunningAfter } from './fixtures/ingests.js'
import { filledStore } from './fixtures/stores.js'

t.test('a page whose cursor the upstream does not know (after a failover) is read again from its window start', async (t) => {
  const source = await filledStore(t, 300, { seed: 'cursor' })
  const upstream = await serveContract(t, source)
  let refused = 0
  upstream.intercept = (req, res) => {
    if (refused > 0 || !/\/block\?.*next=/.test(req.url ?? '')) return false
    refused += 1
    res.writeHead(404, { 'content-type': 'application/json' })
    res.end('{"code":"CURSOR_NOT_FOUND"}')
    return true
  }
  const store = await followerStore(t)
  const ingest = createIngest({ ...quick, pageSize: 5, store, upstreams: [upstream.url], follow: false })
  await ingest.start()
  await ingest.done
  t.equal(refused, 1)
  t.same(await storedHashes(store), await storedHashes(source))
  t.same(ingest.status().upstreams[0]?.state, 'active', 'not held against the upstream')
})

t.test('an invalid block demotes its upstream and the round is tried again after a backoff, until the upstream mends', async (t) => {
  const source = await filledStore(t, 200, { seed: 'mend' })
  const upstream = await serveContract(t, source)
  const real = [...source.cut().values()][2]!.hash.toString('base64url')
  const altered = `${real.slice(0, 20)}${real[20] === 'A' ? 'B' : 'A'}${real.slice(21)}`
  upstream.rewrite = (body) => body.replaceAll(`"hash":"${real}"`, `"hash":"${altered}"`)
  const store = await followerStore(t)
  const { logger, lines } = collectingLogger()
  const ingest = createIngest({ ...quick, store, upstreams: [upstream.url], logger })
  t.teardown(() => ingest.stop())
  await ingest.start()
  t.ok(await eventually(() => ingest.status().upstreams[0]?.state === 'demoted'), 'demoted')
  t.ok(await eventually(() => lines.some((line) => line.message === 'ingest round failed; copying again after a backoff')))
  t.match(
    lines.find((line) => line.message.startsWith('ingest round failed')),
    {
      level: 'warn',
      fields: { upstream: upstream.url, code: 'INVALID_BLOCK', attempt: 1, nextAttempt: String },
    },
  )
  t.notOk(ingest.status().ready)
  upstream.rewrite = undefined
  t.ok(await eventually(() => JSON.stringify(cutOf(store)) === JSON.stringify(cutOf(source))), 'caught up once the upstream mended')
  t.ok(ingest.status().rejected >= 1)
  t.ok((ingest.status().refusals.get('INVALID_BLOCK_HASH') ?? 0) >= 1, 'counted by the code of the rule it broke')
  t.match(
    lines.find((line) => line.message === 'block refused'),
    { level: 'error', fields: { upstream: upstream.url, codes: ['INVALID_BLOCK_HASH'], chain: Number, height: Number, block: String } },
  )
})

t.test("a block created after this node's clock is refused for now, its upstream kept, and taken once the clock passes it", async (t) => {
  const source = await filledStore(t, 200, { seed: 'future' })
  const upstream = await serveContract(t, source)
  const genesisTime = source.network.genesisTime
  // The store's clock stands at the devnet's height 3 (creation times: a block delay per height).
  let now = genesisTime + 5 * source.network.blockDelay * 1_000_000
  const store = await openStore({ path: freshFolder(t), network: 'development', cutPolicy: 'adopted', clock: () => now })
  t.teardown(() => store.close())
  const { logger, lines } = collectingLogger()
  const ingest = createIngest({ ...quick, store, upstreams: [upstream.url], logger })
  t.teardown(() => ingest.stop())
  await ingest.start()
  t.ok(await eventually(() => lines.some((line) => line.message.startsWith('block refused for now'))), 'refused for now')
  t.match(
    lines.find((line) => line.message.startsWith('block refused for now')),
    {
      level: 'warn',
      fields: { upstream: upstream.url, codes: ['BLOCK_IN_THE_FUTURE'] },
    },
  )
  t.notOk(
    lines.some((line) => line.message === 'block refused'),
    'not held against the upstream',
  )
  t.not(ingest.status().upstreams[0]?.state, 'demoted')
  t.ok((ingest.status().refusals.get('BLOCK_IN_THE_FUTURE') ?? 0) >= 1)
  now = Number.MAX_SAFE_INTEGER
  t.ok(await eventually(() => JSON.stringify(cutOf(store)) === JSON.stringify(cutOf(source))), 'caught up once the clock passed them')
})

t.test('blocks the upstream writes into a window after its page was read are copied, orphans included', async (t) => {
  const source = await filledStore(t, 300, { seed: 'moving' })
  const upstream = await serveContract(t, source)
  // The lowest chain: its page of the window above its head ends inside the window.
  const [lowest, head] = [...source.cut()].sort(([, a], [, b]) => a.height - b.height)[0]!
  let grown: Promise<unknown> | undefined
  upstream.intercept = async (req, res) => {
    if (grown !== undefined) {
      // Every request after that page sees the upstream grown: the order is the test's, not the machine's.
      await grown
      return false
    }
    const url = new URL(req.url ?? '/', 'http://localhost')
    const [min, max] = [Number(url.searchParams.get('minheight')), Number(url.searchParams.get('maxheight'))]
    if (!url.pathname.endsWith(`/chain/${lowest}/block`) || !(min <= head.height + 1 && head.height + 1 <= max)) return false
    // Answered as the upstream stands; then it grows, every block with a losing sibling.
    grown = once(res, 'finish').then(() => fill(source, { blocks: 100, forkRate: 1, seed: 'moving-on' }))
    return false
  }
  const store = await followerStore(t)
  const ingest = createIngest({ ...quick, windowBlocks: 60, store, upstreams: [upstream.url], follow: false })
  await ingest.start()
  await ingest.done
  t.ok(grown, `the upstream grew after the page of chain ${lowest} above height ${head.height} was read`)
  t.same(await storedHashes(store), await storedHashes(source), 'every block, orphans included')
})

t.test('an orphan the upstream writes below a page already read, on a chain that then grows far, is copied', async (t) => {
  const full = await filledStore(t, 600, { forkRate: 0.3, seed: 'late-deep' })
  const blocks = await blocksOf(full)
  const key = (hash: Buffer): string => hash.toString('base64url')
  const named = new Set(blocks.flatMap(({ header }) => [key(header.parent), ...header.adjacents.map(([, hash]) => key(hash))]))
  const heads = full.cut()
  // A leaf that is no chain's head (an orphan) in the lower half of the chain.
  const late = blocks.find(
    ({ header }) =>
      header.height >= 6 && header.height <= 12 && !named.has(key(header.hash)) && !heads.get(header.chainId)!.hash.equals(header.hash),
  )
  t.ok(late, 'an orphan leaf low in the chain')
  if (late === undefined) return
  // The upstream stands two heights above the orphan on every chain, without it.
  const top = late.header.height + 2
  const source = await openStore({ path: freshFolder(t), network: 'development' })
  t.teardown(() => source.close())
  await source.insertMany(blocks.filter((block) => block !== late && block.header.height <= top))
  const upstream = await serveContract(t, source)
  let grown: Promise<unknown> | undefined
  upstream.intercept = async (req, res) => {
    if (grown !== undefined) {
      await grown
      return false
    }
    const url = new URL(req.url ?? '/', 'http://localhost')
    const [min, max] = [Number(url.searchParams.get('minheight')), Number(url.searchParams.get('maxheight'))]
    if (!url.pathname.endsWith(`/chain/${late.header.chainId}/block`) || !(min <= late.header.height && late.header.height <= max))
      return false
    // Once the page that would hold the orphan was read: the orphan is written, then every chain
    // grows far above the margin, so no chain's page ends near the orphan's height.
    grown = once(res, 'finish').then(async () => {
      await source.insert(late)
      await source.insertMany(blocks.filter((block) => block.header.height > top))
    })
    return false
  }
  const store = await followerStore(t)
  const ingest = createIngest({ ...quick, windowBlocks: 60, resumeMargin: 4, store, upstreams: [upstream.url], follow: false })
  await ingest.start()
  await ingest.done
  t.ok(grown, `the orphan at height ${late.header.height} of chain ${late.header.chainId} was written after its page was read`)
  t.ok((await storedHashes(store)).flat().includes(key(late.header.hash)), 'the late orphan')
  t.same(await storedHashes(store), await storedHashes(full), 'every block, the late orphan included')
})

// A cursor in the query of a GET block page.
const pageWithCursor = /\/block\?.*next=/

t.test('an upstream that refuses the cursors of its own pages is read from the window start once, then demoted', async (t) => {
  const source = await filledStore(t, 300, { seed: 'cursor-liar' })
  const upstream = await serveContract(t, source)
  upstream.intercept = (req, res) => {
    if (!pageWithCursor.test(req.url ?? '')) return false
    res.writeHead(404, { 'content-type': 'application/problem+json' })
    res.end('{"code":"CURSOR_NOT_FOUND"}')
    return true
  }
  await refusedCopy(t, upstream.url, /cursors of its own pages/)
  const asked = upstream.requests.filter((request) => pageWithCursor.test(request)).length
  t.ok(asked <= 2 * 20, `${asked} cursors asked: two per chain at most`)
})

t.test('a page that gives a cursor the walk already followed is a bad response, not a walk without end', async (t) => {
  const source = await filledStore(t, 300, { seed: 'cursor-circle' })
  const upstream = await serveContract(t, source)
  upstream.intercept = (req, res) => {
    if (!pageWithCursor.test(req.url ?? '')) return false
    const next = new URL(req.url ?? '/', 'http://localhost').searchParams.get('next')
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ limit: 0, items: [], next }))
    return true
  }
  await refusedCopy(t, upstream.url, /a cursor not followed before/)
})

// A one-off copy from `url` that must end with a bad response, its upstream demoted.
async function refusedCopy(t: Test, url: string, message: RegExp): Promise<void> {
  const store = await followerStore(t)
  const ingest = createIngest({ ...quick, pageSize: 5, store, upstreams: [url], follow: false, failFast: true })
  t.teardown(() => ingest.stop())
  await ingest.start()
  await t.rejects(Promise.race([ingest.done, stillRunningAfter(300_000)]), { code: 'UPSTREAM_BAD_RESPONSE', message })
  t.equal(ingest.status().upstreams[0]?.state, 'demoted')
}
