import { fill } from '@weft/devnet'
import { encodeHash } from '@weft/hash-text'
import { openStore } from '@weft/store'
import { eventually, freshFolder } from '@weft/test-kit'
import t from 'tap'
import { isCheap, startCheapUpstream } from './fixtures/cheap-upstream.js'
import { startNode } from './fixtures/node.js'
import { parsePrometheus, sampleValue } from './fixtures/prometheus.js'
import { subscribe } from './fixtures/streams.js'
import { assertSameNode, caughtUp, getText, startFollower } from './fixtures/upstreams.js'

// A follower given two upstreams: first a hostile one serving a cheap chain (easy targets, matching
// weights, valid hashes: see fixtures/cheap-upstream.ts), then an honest Weft. The cheap chain is
// twice as high, so its cut looks best; the follower must store none of it, demote its upstream,
// count the refusals by code, and serve, page for page and event for event, only the honest chain.
t.test(
  'a cheap chain from a hostile upstream is refused block for block, its upstream demoted, and only the honest chain served',
  async (t) => {
    const data = freshFolder(t)
    const seeded = await openStore({ path: data, network: 'development' })
    await fill(seeded, { blocks: 400, forkRate: 0.1, seed: 'honest' })
    await seeded.close()
    const honest = await startNode(t, { data })
    const cheap = await startCheapUpstream(t, 40)
    const { server: follower, log } = await startFollower(t, [cheap.url, honest.url])
    const events = await subscribe(`${follower.url}/chain/0.0/development/header/updates`)
    t.teardown(() => events.destroy())

    t.ok(await eventually(() => caughtUp(honest, follower), 120_000), 'the follower caught up with the honest upstream')
    t.ok(
      cheap.requests.some((request) => request.includes('/block?')),
      'it was asked for blocks',
    )
    const status = follower.ingest!.status()
    t.equal(status.upstreams.find((upstream) => upstream.url === cheap.url)?.state, 'demoted', 'the cheap upstream is demoted')
    t.ok((status.refusals.get('INVALID_TARGET') ?? 0) >= 1, 'refused for its targets')

    let stored = 0
    for (const block of cheap.blocks) if ((await follower.store.getHeader(block.header.hash)) !== undefined) stored += 1
    t.equal(stored, 0, `none of the ${cheap.blocks.length} cheap blocks is stored`)
    await assertSameNode(t, honest, follower, '/chain/0.0/development')
    const announced = events.data().map((text) => (JSON.parse(text) as { header: { hash: string } }).header.hash)
    t.ok(announced.length > 0, `${announced.length} blocks announced`)
    t.same(
      announced.filter((hash) => isCheap(cheap, hash)),
      [],
      'no cheap block announced',
    )
    let unknown = 0
    for (const hash of announced) if ((await honest.store.getHeader(Buffer.from(hash, 'base64url'))) === undefined) unknown += 1
    t.equal(unknown, 0, 'every announced block is the honest chain')

    const refused = log.lines.find((line) => line.msg === 'block refused')
    t.match(refused, { level: 50, upstream: cheap.url, codes: ['INVALID_TARGET'], chain: Number, height: 1 })
    t.ok(
      cheap.blocks.some((block) => encodeHash(block.header.hash) === refused?.block),
      'the refused block is a cheap one',
    )
    const families = parsePrometheus((await getText(`${follower.url}/metrics`)).text)
    t.ok(
      (sampleValue(families, 'weft_ingest_refused_blocks_total', { code: 'INVALID_TARGET' }) ?? 0) >= 1,
      '/metrics counts the refusals by code',
    )
    t.equal((await getText(`${follower.url}/chain/0.0/development/cut`)).status, 200, 'the node keeps serving')
  },
)
