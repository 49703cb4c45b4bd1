import { fill } from '@weft/devnet'
import { encodeHash } from '@weft/hash-text'
import t from 'tap'
import {
  type AnyHeaderUpdate,
  createClient,
  type HeaderStreamEvent,
  InvalidResponseError,
  queryString,
  WeftHttpError,
} from '../src/index.js'
import { eventually, filledNode, freshFolder, serveData, winningBranch } from './fixtures/nodes.js'

const unknownHash = encodeHash(Buffer.alloc(32, 0xab))

t.test('a query string carries only the parameters given', async (t) => {
  t.equal(queryString({}), '')
  t.equal(queryString({ next: null }), '')
  t.equal(queryString({ limit: 5, next: 'inclusive:x', minheight: 1, maxheight: 9 }), '?limit=5&next=inclusive%3Ax&minheight=1&maxheight=9')
})

t.test('against a spec-profile node over a store with forks', async (t) => {
  const { server, data } = await filledNode(t, { blocks: 300 })
  const client = createClient({ url: `${server.url}/`, validate: true })

  t.test('info, health and the discovered network and profile match the node', async (t) => {
    t.same(await client.target(), { network: 'development', profile: 'spec' })
    t.equal((await client.info()).nodeVersion, 'development')
    t.equal(await client.health(), 'Health check OK.\n')
    t.equal(client.url, server.url, 'a trailing slash is dropped')
  })

  t.test('blocks visits every block of a chain once, ascending, orphans included', async (t) => {
    for (const chain of [0, 7]) {
      const stored: string[] = []
      for await (const item of server.store.range({ chain })) stored.push(encodeHash(item.hash))
      const seen: string[] = []
      let pages = 0
      for await (const page of client.blockPages(chain, { limit: 7 })) {
        pages += 1
        for (const block of page.items) seen.push(block.header.hash)
      }
      t.same(seen, stored, `chain ${chain}: the same blocks in the same order`)
      t.equal(pages, Math.ceil(stored.length / 7), `chain ${chain}: no page after the one whose next is null`)
      t.ok(stored.length > new Set((await winningBranch(server, chain)).map((h) => h.height)).size, `chain ${chain} has orphans`)
    }
    const heights: number[] = []
    for await (const block of client.blocks(0, { minheight: 3, maxheight: 5 })) heights.push(block.header.height)
    t.ok(heights.length >= 3 && heights.every((h, i) => h >= 3 && h <= 5 && h >= (heights[i - 1] ?? 0)), 'height bounds are applied')
  })

  t.test('a query that matches nothing is an empty page and an empty iteration', async (t) => {
    t.same(await client.blockPage(0, { minheight: 100_000 }), { limit: 0, items: [], next: null })
    const blocks = []
    for await (const block of client.blocks(0, { minheight: 100_000 })) blocks.push(block)
    t.same(blocks, [])
  })

  t.test('branch yields the winning branch above a lower bound, descending, across pages', async (t) => {
    const winning = await winningBranch(server, 0)
    const head = winning.at(-1)!
    const lower = winning[5]!
    const hashes: string[] = []
    for await (const block of client.branch(0, { upper: [encodeHash(head.hash)], lower: [encodeHash(lower.hash)] }, { limit: 4 }))
      hashes.push(block.header.hash)
    t.same(
      hashes,
      winning
        .slice(6)
        .reverse()
        .map((h) => encodeHash(h.hash)),
    )
  })

  t.test('errors carry the status and the problem code', async (t) => {
    await t.rejects(client.blockPage(0, { next: `inclusive:${unknownHash}` }), {
      name: 'WeftHttpError',
      status: 404,
      code: 'CURSOR_NOT_FOUND',
    })
    await t.rejects(client.branchPage(0, { upper: [unknownHash] }), { status: 404, code: 'BLOCK_NOT_FOUND' })
    const error = await client.blockPage(0, { limit: -1 }).catch((e: unknown) => e)
    t.ok(error instanceof WeftHttpError && error.status === 400, 'a bad limit is a 400')
    t.match((error as WeftHttpError).body, { status: 400, code: String })
  })

  t.test('heads equal the store cut, with GET cut or by searching when the node has none', async (t) => {
    const cut = server.store.cut()
    const expected = [...cut].map(([chain, h]) => [chain, encodeHash(h.hash)])
    const fromCut = await client.heads()
    t.same(
      [...fromCut].map(([chain, h]) => [chain, h.hash]).sort((a, b) => Number(a[0]) - Number(b[0])),
      expected,
    )
    let cutRequests = 0
    const withoutCut = createClient({
      url: server.url,
      fetch: async (input, init) => {
        if (String(input).endsWith('/cut')) {
          cutRequests += 1
          return new Response('Not Found', { status: 404 })
        }
        return fetch(input, init)
      },
    })
    const searched = await withoutCut.heads([0, 3, 19])
    t.same(
      [...searched].map(([chain, h]) => [chain, h.hash]).sort((a, b) => Number(a[0]) - Number(b[0])),
      expected.filter(([chain]) => [0, 3, 19].includes(Number(chain))),
    )
    await withoutCut.heads([1])
    t.equal(cutRequests, 1, 'a node without GET cut is asked only once')
  })

  t.test('header updates arrive as blocks are inserted and the stream resumes after a restart', async (t) => {
    const controller = new AbortController()
    const events: HeaderStreamEvent[] = []
    const updates = () => events.filter((e): e is { type: 'update'; update: AnyHeaderUpdate } => e.type === 'update')
    const connections = () => events.filter((e) => e.type === 'connected').length
    const restartable = await serveData(t, { data: freshFolder(t) })
    const port = restartable.port
    const live = createClient({ url: restartable.url, validate: true })
    const reading = (async () => {
      for await (const event of live.headerEvents({ signal: controller.signal, retryDelay: 50 })) events.push(event)
    })()
    t.ok(await eventually(() => connections() === 1), 'connected')
    await fill(restartable.store, { blocks: 12, forkRate: 0.3, seed: 'updates' })
    t.ok(await eventually(() => updates().length >= 12), 'every insert arrives')
    await restartable.close()
    const again = await serveData(t, { data: restartable.config.data, port })
    t.ok(await eventually(() => connections() === 2), 'reconnected after the restart')
    await fill(again.store, { blocks: 12, forkRate: 0.3, seed: 'more' })
    t.ok(await eventually(() => updates().length >= 24), 'inserts after the restart arrive')
    const hashes = updates().map((e) => e.update.header.hash)
    t.equal(new Set(hashes).size, 24, 'each insert arrives once')
    for (const hash of hashes) if (!(await again.store.getHeader(Buffer.from(hash, 'base64url')))) t.fail(`${hash} is not stored`)
    controller.abort()
    await reading
    t.pass('aborting ends the stream')
  })

  t.test('a stream silent past the idle timeout is dropped and opened again', async (t) => {
    const quiet = await serveData(t, { data: freshFolder(t), keepAlive: 0 })
    const controller = new AbortController()
    let connections = 0
    for await (const event of createClient({ url: quiet.url }).headerEvents({
      signal: controller.signal,
      idleTimeout: 100,
      retryDelay: 10,
    })) {
      if (event.type === 'connected' && ++connections === 3) controller.abort()
    }
    t.equal(connections, 3, 'two reconnections without any event or keep-alive')
  })

  t.test('a client error on the stream is thrown, not retried', async (t) => {
    const wrong = createClient({ url: server.url, network: 'mainnet01', profile: 'spec' })
    const reading = (async () => {
      for await (const update of wrong.headerUpdates({ retryDelay: 10 })) t.fail(`unexpected ${JSON.stringify(update)}`)
    })()
    await t.rejects(reading, { name: 'WeftHttpError', status: 404 })
  })

  t.test('an unreachable node is retried until aborted', async (t) => {
    const stopped = await serveData(t, { data: freshFolder(t) })
    await stopped.close()
    const unreachable = createClient({ url: stopped.url, network: 'development', profile: 'spec' })
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 300)
    for await (const update of unreachable.headerUpdates({ signal: controller.signal, retryDelay: 20, maxRetryDelay: 40 }))
      t.fail(`unexpected ${JSON.stringify(update)}`)
    t.ok(controller.signal.aborted)
    await t.rejects(unreachable.info(), { code: 'NETWORK_ERROR' })
  })

  t.test('an error body that claims JSON but is not is kept as text', async (t) => {
    const broken = createClient({
      url: server.url,
      fetch: async () => new Response('{oops', { status: 502, headers: { 'content-type': 'application/json' } }),
    })
    await t.rejects(broken.health(), { status: 502, body: '{oops', code: 'HTTP_502' })
  })

  t.test('the network and profile are found again after a failed discovery', async (t) => {
    const stopped = await serveData(t, { data: freshFolder(t) })
    await stopped.close()
    let calls = 0
    const flaky = createClient({
      url: server.url,
      fetch: async (input, init) => (++calls === 1 ? fetch(`${stopped.url}/info`, init) : fetch(input, init)),
    })
    await t.rejects(flaky.target(), { code: 'NETWORK_ERROR' })
    t.same(await flaky.target(), { network: 'development', profile: 'spec' })
  })

  t.test('the chainweb profile of the same data', async (t) => {
    await server.close()
    const chainweb = await serveData(t, { data, profile: 'chainweb' })
    const cw = createClient({ url: chainweb.url, validate: true, headers: { 'x-test': '1' } })
    t.same(await cw.target(), { network: 'development', profile: 'chainweb' })
    const stored: string[] = []
    for await (const item of chainweb.store.range({ chain: 2 })) stored.push(encodeHash(item.hash))
    const seen: string[] = []
    let pages = 0
    for await (const page of cw.blockPages(2, { limit: 10 })) {
      pages += 1
      for (const block of page.items) seen.push(block.header.hash)
    }
    t.same(seen, stored, 'every block once, in order')
    t.equal(pages, Math.ceil(stored.length / 10) + 1, 'the exclusive cursor of the last page is followed to one empty page')
    t.same(await cw.blockPage(0, { minheight: 100_000 }), { limit: 0, items: [], next: null })
    await t.rejects(cw.blockPage(0, { next: `inclusive:${unknownHash}` }), { status: 404, code: 'KEY_NOT_FOUND' })
    const head = chainweb.store.cut().get(2)!
    const heads = await cw.heads([2])
    t.equal(heads.get(2)?.hash, encodeHash(head.hash))
    t.equal((await cw.info()).nodeVersion, 'development')

    // A client told `spec` but answered in chainweb names: validation notices the foreign header key.
    const misled = createClient({
      url: chainweb.url,
      network: 'development',
      profile: 'spec',
      validate: true,
      fetch: (input, init) => fetch(String(input).replace('/chain/0.0/', '/chainweb/0.0/'), init),
    })
    await t.rejects(misled.blockPage(2, { limit: 1 }), InvalidResponseError)
    await t.rejects(misled.blockPage(2, { limit: 1 }), { code: 'INVALID_RESPONSE' })
    const lenient = createClient({
      url: chainweb.url,
      network: 'development',
      profile: 'spec',
      fetch: (input, init) => fetch(String(input).replace('/chain/0.0/', '/chainweb/0.0/'), init),
    })
    t.equal((await lenient.blockPage(2, { limit: 1 })).items.length, 1, 'without validation the body is returned as is')
  })
})
