import { createRandom, fill, reorg } from '@weft/devnet'
import type { StoreEvent } from '@weft/store'
import t from 'tap'
import { createClient, type HeaderStreamEvent } from '../src/index.js'
import { eventually, freshFolder, serveData } from './fixtures/nodes.js'
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
