import { encodeHash } from '@weft/hash-text'
import t from 'tap'
import { createClient, WeftHttpError } from '../src/index.js'
import { filledNode, serveData, winningBranch } from './fixtures/nodes.js'

const unknownHash = encodeHash(Buffer.alloc(32, 0xab))

t.test('pages of a node over a store with forks, in both profiles', async (t) => {
  const { server, data } = await filledNode(t, { blocks: 300 })
  const client = createClient({ url: `${server.url}/`, validate: true })

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

  t.test('errors carry the status and the code the server named', async (t) => {
    await t.rejects(client.blockPage(0, { next: `inclusive:${unknownHash}` }), {
      name: 'WeftHttpError',
      status: 404,
      code: 'HTTP_ERROR',
      serverCode: 'CURSOR_NOT_FOUND',
    })
    await t.rejects(client.branchPage(0, { upper: [unknownHash] }), { status: 404, code: 'HTTP_ERROR', serverCode: 'BLOCK_NOT_FOUND' })
    const error = await client.blockPage(0, { limit: -1 }).catch((e: unknown) => e)
    t.ok(error instanceof WeftHttpError && error.status === 400, 'a bad limit is a 400')
    t.match((error as WeftHttpError).body, { status: 400, code: String })
  })

  t.test('the page iterators refuse a page size below 1 instead of yielding nothing', async (t) => {
    for (const limit of [0, -1, 1.5]) {
      await t.rejects(client.blocks(0, { limit }).next(), { name: 'InvalidOptionError', code: 'INVALID_CLIENT_OPTION', option: 'limit' })
      await t.rejects(client.blockPages(0, { limit }).next(), { code: 'INVALID_CLIENT_OPTION', option: 'limit' })
      await t.rejects(client.branch(0, { upper: [unknownHash] }, { limit }).next(), { code: 'INVALID_CLIENT_OPTION', option: 'limit' })
    }
  })

  t.test('the chainweb profile of the same data', async (t) => {
    await server.close()
    const chainweb = await serveData(t, { data, profile: 'chainweb' })
    const cw = createClient({ url: chainweb.url, validate: true })
    const stored: string[] = []
    for await (const item of chainweb.store.range({ chain: 2 })) stored.push(encodeHash(item.hash))
    const seen: string[] = []
    let pages = 0
    for await (const page of cw.blockPages(2, { limit: 10 })) {
      pages += 1
      for (const block of page.items) seen.push(block.header.hash)
    }
    t.same(seen, stored, 'every block once, in order')
    t.equal(pages, Math.ceil(stored.length / 10), "the last page's exclusive cursor ends the walk: no empty page is asked for")
    t.same(await cw.blockPage(0, { minheight: 100_000 }), { limit: 0, items: [], next: null })
    await t.rejects(cw.blockPage(0, { next: `inclusive:${unknownHash}` }), { status: 404, code: 'HTTP_ERROR', serverCode: 'KEY_NOT_FOUND' })
  })
})
