import { createRandom, fill, reorg } from '@weft/devnet'
import type { StoreEvent } from '@weft/store'
import { eventually, freshFolder } from '@weft/test-kit'
import t from 'tap'
import { createClient, type HeaderStreamEvent } from '../src/index.js'
import { serveData } from './fixtures/nodes.js'
import { resettingProxy } from './fixtures/resetting-proxy.js'

const KILLS = 20

type Connected = Extract<HeaderStreamEvent, { type: 'connected' }>

// Reads `headerEvents` into `events` until aborted.
function record(url: string, signal: AbortSignal): { events: HeaderStreamEvent[]; done: Promise<void> } {
  const events: HeaderStreamEvent[] = []
  const done = (async () => {
    for await (const event of createClient({ url }).headerEvents({ signal, retryDelay: 10, maxRetryDelay: 20 })) events.push(event)
  })()
  return { events, done }
}

const updatesOf = (events: readonly HeaderStreamEvent[]) =>
  events.flatMap((event) => (event.type === 'update' ? [`${event.id} ${event.update.header.hash}`] : []))
const connectionsOf = (events: readonly HeaderStreamEvent[]) => events.filter((event): event is Connected => event.type === 'connected')

for (const profile of ['chainweb', 'spec'] as const) {
  t.test(
    `${profile} profile: a client cut off ${KILLS} times at random points of a reorg-heavy run sees every announcement once, in order`,
    async (t) => {
      const server = await serveData(t, { data: freshFolder(t), profile, keepAlive: 0 })
      // Heights enough for reorgs a few blocks deep, before the clients listen.
      await fill(server.store, { blocks: 100, forkRate: 0.3, seed: `${profile} start` })
      const random = createRandom(`stream kills ${profile}`)
      // Cut points anywhere in the first 0 to 25 events of a connection (1 to 1.5 KB each): mid-frame, mid-chunk header, between events.
      const proxy = await resettingProxy(t, server.url, [
        { request: /^GET \S*\/header\/updates/, times: KILLS, bodyBytes: () => random.int(30_000) },
      ])
      let announced = 0
      server.store.subscribe((event: StoreEvent) => {
        if (profile === 'spec') announced += event.type === 'inserted' ? 1 : 0
        else if (event.type === 'cut') announced += event.joined.length
      })
      const controller = new AbortController()
      t.teardown(() => controller.abort())
      const steady = record(server.url, controller.signal)
      const cutOff = record(proxy.url, controller.signal)
      t.ok(await eventually(() => connectionsOf(steady.events).length === 1 && connectionsOf(cutOff.events).length === 1), 'both listen')
      let round = 0
      let reorgs = 0
      while (proxy.resets() < KILLS) {
        round += 1
        await fill(server.store, { blocks: 8, forkRate: 0.5, seed: `${profile} ${round}` })
        await reorg(server.store, { chains: [round % 10, 10 + (round % 10)], depth: 1 + (round % 3), seed: `${profile} ${round}` })
        reorgs += 1
        // Each round waits for both clients to have everything announced so far (the cut one reconnects meanwhile).
        t.ok(await eventually(() => updatesOf(steady.events).length === announced), `round ${round}: the steady client has all`)
        t.ok(await eventually(() => updatesOf(cutOff.events).length >= announced), `round ${round}: the cut-off client has all`)
      }
      controller.abort()
      await Promise.all([steady.done, cutOff.done])
      t.ok(reorgs >= 5, `${reorgs} reorgs of the cut in the run`)
      const expected = updatesOf(steady.events)
      t.equal(new Set(expected).size, expected.length, 'each announcement has an id of its own')
      t.same(updatesOf(cutOff.events), expected, 'the same announcements with the same ids, in the same order: none missed, none twice')
      const connections = connectionsOf(cutOff.events)
      t.equal(proxy.resets(), KILLS)
      t.same(
        connections.map((connection) => connection.resumed),
        [false, ...connections.slice(1).map(() => true)],
        'every reconnection after the first connection resumed',
      )
      t.ok(connections.length >= 2, `${connections.length - 1} reconnections were told they resumed`)
    },
  )
}

t.test('depth: a client of the stream at a confirmation depth, cut off 5 times, sees each final block once, never an orphan', async (t) => {
  const server = await serveData(t, { data: freshFolder(t), profile: 'spec', keepAlive: 0 })
  await fill(server.store, { blocks: 60, forkRate: 0.3, seed: 'depth start' })
  const random = createRandom('depth kills')
  // Each connection is cut after at least one whole event (1 to 1.6 KB), so every reconnection has an id to resume from.
  const proxy = await resettingProxy(t, server.url, [
    { request: /^GET \S*\/header\/updates\?depth=2/, times: 5, bodyBytes: () => 2_000 + random.int(6_000) },
  ])
  const controller = new AbortController()
  t.teardown(() => controller.abort())
  const run = (url: string) => {
    const events: HeaderStreamEvent[] = []
    const stream = createClient({ url }).headerEvents({ signal: controller.signal, depth: 2, retryDelay: 10, maxRetryDelay: 20 })
    const done = (async () => {
      for await (const event of stream) events.push(event)
    })()
    return { events, done }
  }
  const steady = run(server.url)
  const cutOff = run(proxy.url)
  t.ok(await eventually(() => connectionsOf(steady.events).length === 1 && connectionsOf(cutOff.events).length === 1), 'both listen')
  for (let round = 0; proxy.resets() < 5 && round < 100; round++) {
    await fill(server.store, { blocks: 20, forkRate: 0.5, seed: `depth ${round}` })
    await reorg(server.store, { chains: [round % 20], depth: 1, seed: `depth ${round}` })
  }
  t.equal(proxy.resets(), 5)
  await fill(server.store, { blocks: 20, seed: 'depth end' })
  t.ok(await eventually(() => updatesOf(cutOff.events).length === updatesOf(steady.events).length), 'the cut-off client caught up')
  controller.abort()
  await Promise.all([steady.done, cutOff.done])
  const expected = updatesOf(steady.events)
  t.ok(expected.length > 10, `${expected.length} blocks reached depth 2`)
  t.same(updatesOf(cutOff.events), expected, 'the same blocks with the same ids, in the same order: none missed, none twice')
  const orphans: string[] = []
  for (const event of cutOff.events) {
    if (event.type !== 'update') continue
    const { header } = event.update
    const ref = await server.store.ancestorAt(server.store.cut().get(header.chainId)!.hash, header.height)
    if (ref?.hash.toString('base64url') !== header.hash) orphans.push(header.hash)
  }
  t.same(orphans, [], 'no orphan')
  t.same(
    connectionsOf(cutOff.events).map((connection) => connection.resumed),
    [false, true, true, true, true, true],
    'every reconnection resumed the depth stream',
  )
})

t.test('depth must be an integer from 0 to 1000', async (t) => {
  const client = createClient({ url: 'http://127.0.0.1:9' })
  for (const depth of [-1, 1001, 1.5, Number.NaN])
    await t.rejects(client.headerEvents({ depth }).next(), { code: 'INVALID_CLIENT_OPTION', message: /depth/ }, String(depth))
})
