import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { fill } from '@weft/devnet'
import { openStore } from '@weft/store'
import t, { type Test } from 'tap'
import type { RunningServer } from '../src/index.js'
import { chainBlocks, type RawResponse, send, startNode } from './fixtures/node.js'

const immutable = 'public, max-age=31536000, immutable'
const recent = 'public, max-age=5'
const finalDepth = 10

const sha256Tag = (body: Buffer): string => `"${createHash('sha256').update(body).digest('base64url')}"`
const lowestHead = (server: RunningServer): number => Math.min(...[...server.store.cut().values()].map((head) => head.height))

// Folders filled from the same seed hold the same blocks: replicas of the same data, two per profile.
const root = t.testdir()
async function replica(name: string): Promise<string> {
  const store = await openStore({ path: join(root, name), network: 'development' })
  await fill(store, { blocks: 600, forkRate: 0.2, seed: 'caching' })
  await store.close()
  return join(root, name)
}

function checkTagged(t: Test, response: RawResponse, cacheControl: string, what: string): void {
  t.equal(response.status, 200, `${what}: 200`)
  t.equal(response.headers.etag, sha256Tag(response.body), `${what}: the ETag is the SHA-256 of the bytes sent`)
  t.equal(response.headers['cache-control'], cacheControl, `${what}: ${cacheControl}`)
}

for (const profile of ['spec', 'chainweb'] as const) {
  t.test(`${profile} profile`, async (t) => {
    const a = await startNode(t, { data: await replica(`${profile}-a`), network: 'development', profile, finalDepth })
    const b = await startNode(t, { data: await replica(`${profile}-b`), network: 'development', profile, finalDepth })
    const base = profile === 'spec' ? '/chain/0.0/development' : '/chainweb/0.0/development'
    const at = (server: RunningServer, path: string) => `${server.url}${base}${path}`
    const final = lowestHead(a) - finalDepth
    const blocks = await chainBlocks(a, 0)
    const tip = blocks.at(-1)!.height

    t.test('a deep page is immutable, its ETag the same across requests and replicas', async (t) => {
      const path = `/chain/0/block?maxheight=${final}`
      const first = await send(at(a, path))
      checkTagged(t, first, immutable, 'deep page')
      t.equal((await send(at(a, path))).headers.etag, first.headers.etag, 'the same again')
      const other = await send(at(b, path))
      t.equal(other.headers.etag, first.headers.etag, 'the same on the other replica')
      t.same(other.body, first.body)
      t.equal(first.headers.vary, undefined, 'a block page does not depend on Accept')
    })

    t.test('a page is immutable only when every height it depends on is final', async (t) => {
      checkTagged(t, await send(at(a, `/chain/0/block?maxheight=${final + 1}`)), recent, 'maxheight one above the final height')
      checkTagged(t, await send(at(a, `/chain/0/hash?minheight=${final - 3}`)), recent, 'a last page without maxheight')
      const cut = await send(at(a, `/chain/0/hash?limit=3&minheight=${final - 6}`))
      checkTagged(t, cut, immutable, 'a page its limit cut short, below the final height')
      checkTagged(t, await send(at(a, `/chain/0/hash?limit=3&minheight=${final}`)), recent, 'the same at the final height')
      checkTagged(t, await send(at(a, `/chain/0/header?minheight=${tip - 1}`)), recent, 'a near-tip header page')
    })

    t.test('If-None-Match gets a 304 without a body for GET and HEAD; any other tag the full answer', async (t) => {
      const path = at(a, `/chain/0/block?minheight=${tip - 2}`)
      const full = await send(path)
      const tag = String(full.headers.etag)
      for (const header of [tag, '*', `"nothing", W/${tag}`]) {
        for (const method of ['GET', 'HEAD']) {
          const answer = await send(path, { method, headers: { 'if-none-match': header } })
          t.equal(answer.status, 304, `${method} ${header}`)
          t.equal(answer.body.length, 0)
          t.equal(answer.headers.etag, tag)
          t.equal(answer.headers['cache-control'], recent)
          t.equal(answer.headers['content-type'], undefined)
        }
      }
      const head = await send(path, { method: 'HEAD' })
      t.equal(head.status, 200)
      t.equal(head.body.length, 0)
      t.equal(head.headers.etag, tag, 'HEAD has the ETag of the GET')
      t.equal(head.headers['content-length'], String(full.body.length))
      const other = await send(path, { headers: { 'if-none-match': '"nothing", W/"else"' } })
      t.equal(other.status, 200)
      t.same(other.body, full.body)
    })

    t.test('header answers vary on Accept, and a header or payload named by hash is immutable', async (t) => {
      const objects = { accept: 'application/json;blockheader-encoding=object' }
      const texts = await send(at(a, `/chain/0/header?maxheight=${final}`))
      const asObjects = await send(at(a, `/chain/0/header?maxheight=${final}`), { headers: objects })
      checkTagged(t, texts, immutable, 'binary header page')
      checkTagged(t, asObjects, immutable, 'header object page')
      t.not(texts.headers.etag, asObjects.headers.etag)
      t.equal(texts.headers.vary, 'Accept')
      t.equal(asObjects.headers.vary, 'Accept')
      const top = blocks.at(-1)!
      const binary = await send(at(a, `/chain/0/header/${top.hash}`), { headers: { accept: 'application/octet-stream' } })
      checkTagged(t, binary, immutable, 'the tip header by hash, binary')
      t.equal(binary.headers.vary, 'Accept')
      const stored = (await a.store.getStoredHeader(Buffer.from(top.hash, 'base64url')))!
      const payload = await send(at(a, `/chain/0/payload/${stored.header.payloadHash.toString('base64url')}/outputs`))
      checkTagged(t, payload, immutable, 'a payload by hash')
      const batch = `/chain/0/payload/outputs/batch`
      const post = (body: unknown, headers: Record<string, string> = {}) =>
        send(at(a, batch), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
      const known = stored.header.payloadHash.toString('base64url')
      checkTagged(t, await post([known]), immutable, 'a batch of known payloads')
      checkTagged(t, await post([known, 'A'.repeat(43)]), recent, 'a batch with an unknown payload')
      const again = await post([known], { 'if-none-match': '*' })
      t.equal(again.status, 200, 'a POST is answered in full, If-None-Match or not')
    })

    t.test('a branch is immutable once all its bounds are stored', async (t) => {
      const upper = blocks.findLast((block) => block.height === final)!
      const lower = blocks.find((block) => block.height === final - 5)!
      const post = (body: unknown) =>
        send(at(a, '/chain/0/block/branch'), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      checkTagged(t, await post({ upper: [upper.hash], lower: [lower.hash] }), immutable, 'known bounds')
      checkTagged(t, await post({ upper: [blocks.at(-1)!.hash], lower: [lower.hash] }), immutable, 'a tip upper bound')
      checkTagged(t, await post({ upper: [upper.hash], lower: ['A'.repeat(43)] }), recent, 'an unknown lower bound')
    })

    t.test('the cut is no-cache, /info short, liveness and errors never kept', async (t) => {
      checkTagged(t, await send(at(a, '/cut')), 'no-cache', 'the cut')
      checkTagged(t, await send(`${a.url}/info`), recent, '/info')
      checkTagged(t, await send(`${a.url}/health-check`), 'no-store', '/health-check')
      const missing = await send(at(a, `/chain/0/header/${'A'.repeat(43)}`))
      t.equal(missing.status, 404)
      t.equal(missing.headers['cache-control'], 'no-store')
      t.equal(missing.headers.etag, undefined)
      const streamed = await send(at(a, '/cut'), { headers: { 'if-none-match': String((await send(at(a, '/cut'))).headers.etag) } })
      t.equal(streamed.status, 304, 'the cut revalidates by its ETag')
    })

    t.test('mining more blocks changes no immutable answer, and changes near-tip ones', async (t) => {
      // Every page of chain 0 from each height, cut short and not, before and after the new blocks.
      const paths = blocks
        .filter((block, index) => index === 0 || blocks[index - 1]!.height !== block.height)
        .flatMap((block) => [`/chain/0/block?minheight=${block.height}&limit=4`, `/chain/0/hash?minheight=${block.height}`])
      const before = await Promise.all(paths.map((path) => send(at(a, path))))
      const lowBefore = lowestHead(a)
      await fill(a.store, { blocks: 300, forkRate: 0.3, seed: `more-${profile}` })
      t.ok(lowestHead(a) > lowBefore + finalDepth, 'every head moved on')
      let changed = 0
      for (const [index, path] of paths.entries()) {
        const old = before[index]!
        const now = await send(at(a, path))
        if (old.headers.etag !== now.headers.etag) {
          changed++
          t.not(old.headers['cache-control'], immutable, `${path} changed, and was not immutable`)
        }
        if (old.headers['cache-control'] === immutable) t.same(now.body, old.body, `${path} is the same`)
      }
      t.ok(changed > 0, `near-tip pages changed (${changed})`)
      const nearTip = await send(at(a, `/chain/0/block?minheight=${tip - 2}`))
      t.not(nearTip.headers.etag, (await send(at(b, `/chain/0/block?minheight=${tip - 2}`))).headers.etag)
      checkTagged(t, await send(at(a, `/chain/0/block?maxheight=${tip}`)), immutable, 'the old tip is final now')
    })
  })
}
