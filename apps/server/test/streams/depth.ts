import { get } from 'node:http'
import { fill, reorg } from '@weft/devnet'
import { type ChainStore, openStore } from '@weft/store'
import { until } from '@weft/test-kit'
import { pino } from 'pino'
import t from 'tap'
import { profiles } from '../../src/profile/profiles.js'
import { DepthFeeds, MAX_DEPTH_FEEDS } from '../../src/streams/depth-feeds.js'
import { filledFolder, startNode } from '../fixtures/node.js'
import { type Subscriber, subscribe } from '../fixtures/streams.js'

interface Announced {
  readonly hash: string
  readonly chain: number
  readonly height: number
  readonly hasPayload: boolean
}

const announced = (subscriber: Subscriber): Announced[] =>
  subscriber.data().map((text) => {
    const data = JSON.parse(text) as { header: { hash: string; chainId: number; height: number }; payloadWithOutputs?: unknown }
    return {
      hash: data.header.hash,
      chain: data.header.chainId,
      height: data.header.height,
      hasPayload: data.payloadWithOutputs !== undefined,
    }
  })

// The hash of the winning branch's block at `height` on `chain`, base64url.
async function winning(store: ChainStore, chain: number, height: number): Promise<string> {
  const ref = await store.ancestorAt(store.cut().get(chain)!.hash, height)
  return ref!.hash.toString('base64url')
}

// Every (chain, height) of the winning branch above `from` (the heads when the stream began) up to `depth` below each head now.
function expectedPlaces(store: ChainStore, from: ReadonlyMap<number, number>, depth: number): string[] {
  const places: string[] = []
  for (const [chain, head] of store.cut())
    for (let height = Math.max(0, from.get(chain)! - depth + 1); height <= head.height - depth; height++) places.push(`${chain}:${height}`)
  return places.sort()
}

const dir = await filledFolder(t, 'development', 30, 0.3)

t.test('?depth=N: each block of the winning branch once it is N below its head, each chain in height order, never an orphan', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', keepAlive: 0 })
  const base = `${server.url}/chain/0.0/development`
  const depth = 3
  const from = new Map([...server.store.cut()].map(([chain, head]) => [chain, head.height]))
  const headers = await subscribe(`${base}/header/updates?depth=${depth}`)
  const blocks = await subscribe(`${base}/block/updates?depth=${depth}`)
  t.equal(headers.response.statusCode, 200)
  await fill(server.store, { blocks: 160, forkRate: 0.4, seed: 'depth 1' })
  // Shallower than the depth: the replaced blocks were not announced yet, and never will be.
  await reorg(server.store, { chains: [2, 5], depth: depth - 1, seed: 'depth' })
  await fill(server.store, { blocks: 60, forkRate: 0.4, seed: 'depth 2' })
  const places = expectedPlaces(server.store, from, depth)
  t.ok(places.length > 100, `${places.length} blocks reached depth ${depth}`)
  await until(
    () => announced(headers).length >= places.length && announced(blocks).length >= places.length,
    'every place on the header and block streams',
  )
  for (const [kind, subscriber] of [
    ['header', headers],
    ['block', blocks],
  ] as const) {
    const events = announced(subscriber)
    t.same(events.map((event) => `${event.chain}:${event.height}`).sort(), places, `${kind}: each place of the winning branch once`)
    const orphans: string[] = []
    for (const event of events) if (event.hash !== (await winning(server.store, event.chain, event.height))) orphans.push(event.hash)
    t.same(orphans, [], `${kind}: no orphan`)
    const chains = new Set(events.map((event) => event.chain))
    const ascending = [...chains].every((chain) => {
      const heights = events.filter((event) => event.chain === chain).map((event) => event.height)
      return heights.every((height, index) => index === 0 || height === (heights[index - 1] as number) + 1)
    })
    t.ok(ascending, `${kind}: each chain's blocks in height order, none left out`)
    t.ok(
      events.every((event) => event.hasPayload === (kind === 'block')),
      `${kind}: ${kind === 'block' ? 'with' : 'without'} the payload`,
    )
  }

  // A client of the depth stream resumes from its own ids.
  const ids = headers
    .received()
    .split('\n\n')
    .flatMap((frame) => /\nid:(\S+)$/.exec(frame)?.[1] ?? [])
  t.equal(ids.length, places.length, 'an id on every event')
  const resumed = await subscribe(`${base}/header/updates?depth=${depth}&since=${encodeURIComponent(ids[9]!)}`)
  await until(() => resumed.data().length === places.length - 10, 'the rest of the places on the resumed stream')
  t.same(resumed.data(), headers.data().slice(10), 'resumed after the tenth event: the rest, byte for byte')
  // The main stream's ids are another log's: a depth stream answers ResumeFromPage.
  const foreign = await subscribe(`${base}/header/updates?depth=${depth + 1}&since=${encodeURIComponent(ids[9]!)}`)
  await until(() => foreign.received().includes('event:ResumeFromPage'), 'a ResumeFromPage event on the stream of another id')
  t.match(foreign.received(), /"code":"EVENT_ID_UNKNOWN"/)
  for (const subscriber of [headers, blocks, resumed, foreign]) subscriber.destroy()
})

t.test('a reorg deeper than the depth announces the new winning blocks at heights already announced', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', keepAlive: 0 })
  const base = `${server.url}/chain/0.0/development`
  const headers = await subscribe(`${base}/header/updates?depth=1`)
  await fill(server.store, { blocks: 60, seed: 'deep 1' })
  const head = server.store.cut().get(4)!.height
  await until(
    () => announced(headers).some((event) => event.chain === 4 && event.height === head - 1),
    "chain 4's block below the head on the header stream",
  )
  await reorg(server.store, { chains: [4], depth: 3, seed: 'deep' })
  // The new branch has heights head-2 .. head: head-2 and head-1 are announced again, now the winners.
  await until(
    () => announced(headers).filter((event) => event.chain === 4 && event.height === head - 1).length === 2,
    "chain 4's block below the head announced twice",
  )
  const chain4 = announced(headers).filter((event) => event.chain === 4)
  const last = new Map(chain4.map((event) => [event.height, event.hash]))
  for (const [height, hash] of last)
    t.equal(hash, await winning(server.store, 4, height), `chain 4 height ${height}: the last announced is the winner`)
  headers.destroy()
})

t.test('depth must be an integer from 0 to 1000; at most eight depths are followed at once', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', keepAlive: 0 })
  const base = `${server.url}/chain/0.0/development`
  for (const bad of ['-1', '1001', '1.5', 'x', '01', '']) {
    const { status, body } = await answer(`${base}/header/updates?depth=${encodeURIComponent(bad)}`)
    t.equal(status, 400, `depth=${JSON.stringify(bad)}`)
    t.match(body, /"code":"INVALID_QUERY"/)
    t.match(body, /depth to be an integer from 0 to 1000/)
  }
  const open: Subscriber[] = []
  for (let depth = 0; depth < MAX_DEPTH_FEEDS; depth++) open.push(await subscribe(`${base}/block/updates?depth=${depth}`))
  t.same(
    open.map((subscriber) => subscriber.response.statusCode),
    Array(MAX_DEPTH_FEEDS).fill(200),
  )
  const refused = await answer(`${base}/header/updates?depth=${MAX_DEPTH_FEEDS}`)
  t.equal(refused.status, 429)
  t.match(refused.body, /"code":"TOO_MANY_STREAMS"/)
  t.match(refused.body, /at most 8 different stream depths/)
  const again = await subscribe(`${base}/header/updates?depth=0`)
  t.equal(again.response.statusCode, 200, 'a depth already followed is still served')
  for (const subscriber of [...open, again]) subscriber.destroy()
})

function answer(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }))
    }).on('error', reject)
  })
}

t.test('a depth feed that has had no client at two checks in a row is stopped, and made again when asked', async (t) => {
  const store = await openStore({ path: t.testdir(), network: 'development' })
  t.teardown(() => store.close())
  const feeds = new DepthFeeds({
    store,
    rules: profiles.spec,
    hubOptions: { keepAliveMs: 0, maxBacklogBytes: 1 << 20 },
    retention: 10,
    maxPendingPayloads: 10,
    logger: pino({ level: 'silent' }),
    idleCheckMs: 20,
  })
  t.teardown(() => feeds.close())
  const first = feeds.hubs(4)
  t.same(feeds.depths, [4])
  await until(() => feeds.depths.length === 0, 'the idle feed stopped')
  t.not(feeds.hubs(4), first, 'a new feed, with a new log')
})
