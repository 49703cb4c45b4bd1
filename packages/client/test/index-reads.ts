import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fill } from '@weft/devnet'
import { eventually } from '@weft/test-kit'
import t from 'tap'
import { createClient, type EventUpdate, InvalidOptionError } from '../src/index.js'
import { filledNode } from './fixtures/nodes.js'

t.test('transactions, events and transfers of a spec node, pages followed, and events as they join', async (t) => {
  const { server } = await filledNode(t, { blocks: 120, forkRate: 0.2 })
  const client = createClient({ url: server.url })

  const stored = (await server.store.index.events({ module: 'coin', name: 'TRANSFER', limit: 1000 })).items
  const events = []
  for await (const event of client.events({ name: 'coin.TRANSFER' }, { limit: 9 })) events.push(event)
  t.ok(stored.length > 20, `${stored.length} coin.TRANSFER events`)
  t.same(
    events.map((event) => [event.blockHash, event.position, event.index, event.canonical, event.depth]),
    stored.map((event) => [event.block.hash, event.position, event.index, event.block.canonical, event.block.depth]),
    'every event, orphans included, over pages of 9',
  )
  const first = await client.eventPage({ module: 'coin' }, { limit: 2, canonical: true })
  t.equal(first.items.length, 2)
  t.match(first.next, /^inclusive:/)
  t.ok(first.items.every((event) => event.canonical))

  const sender = (events.find((event) => (event.params[0] as string) !== '')!.params[0] as string) ?? ''
  const transfers = []
  for await (const transfer of client.transfers(sender, 'coin', { limit: 3 })) transfers.push(transfer)
  const mine = (await server.store.index.transfers({ account: sender, limit: 1000 })).items
  t.same(
    transfers.map((transfer) => [transfer.blockHash, transfer.amount, transfer.sender, transfer.receiver]),
    mine.map((transfer) => [transfer.block.hash, transfer.amount, transfer.sender, transfer.receiver]),
    `the transfers of ${sender}, amounts exact`,
  )
  t.same((await client.transferPage(sender)).items.length, Math.min(mine.length, 100))

  const { requestKey } = events.find((event) => event.position >= 0)!
  const copies = await client.transaction(requestKey)
  t.equal(copies.requestKey, requestKey)
  t.ok(copies.copies.length >= 1 && copies.copies.every((copy) => copy.requestKey === requestKey))
  await t.rejects(client.transaction('A'.repeat(43)), { name: 'WeftHttpError', status: 404, serverCode: 'TX_NOT_FOUND' })
  await t.rejects(client.eventPage({}), InvalidOptionError)
  await t.rejects(client.eventPage({ name: 'coin.TRANSFER', module: 'coin' }), InvalidOptionError)
  await t.rejects(async () => {
    for await (const _ of client.events({ name: 'coin.TRANSFER' }, { limit: 0 })) break
  }, InvalidOptionError)

  // The stream: events of blocks that join after it opened, in order; then resumed after the third.
  const controller = new AbortController()
  const seen: Array<EventUpdate & { id?: string }> = []
  const reading = (async () => {
    for await (const event of client.eventUpdates({ name: 'coin.TRANSFER' }, { signal: controller.signal })) {
      seen.push(event)
      if (seen.length === 6) controller.abort()
    }
  })()
  // Blocks until the stream has taken its six (the first fill may come before it is connected).
  for (let round = 0; seen.length < 6 && round < 50; round++) {
    await fill(server.store, { blocks: 20, forkRate: 0, seed: `client stream ${round}` })
    await new Promise((resolve) => setImmediate(resolve))
  }
  await reading
  t.equal(seen.length, 6, 'six coin.TRANSFER events arrived')
  t.ok(seen.every((event) => event.module === 'coin' && event.name === 'TRANSFER'))
  const after = (await server.store.index.events({ module: 'coin', name: 'TRANSFER', canonicalOnly: true, limit: 1000 })).items
  t.ok(
    seen.every((event) => after.some((item) => item.block.hash === event.blockHash && item.index === event.index)),
    'each is an event of the winning branch the index holds',
  )
  const missed: string[] = []
  const resumed = createClient({ url: server.url }).eventUpdates(
    { module: 'coin' },
    { lastEventId: '0123456789abcdef.1.0', onResumeFailed: (data) => missed.push(data) },
  )
  const next = resumed.next()
  await fill(server.store, { blocks: 20, forkRate: 0, seed: 'client stream resumed' })
  t.equal((await next).done, false, 'the stream goes on after an id the node does not know')
  t.match(missed[0], /EVENT_ID_UNKNOWN/, 'and says events were missed')
  await resumed.return(undefined)
})

t.test('the event stream reconnects to a peer that never answers, or goes silent, after idleTimeout', async (t) => {
  const asked: string[] = []
  // The first request never gets headers; the others get headers and then nothing.
  const peer = createServer((req, res) => {
    asked.push(req.url ?? '')
    if (asked.length > 1) res.writeHead(200, { 'content-type': 'text/event-stream' }).flushHeaders()
  })
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    peer.closeAllConnections()
    peer.close()
  })
  const client = createClient({ url: `http://127.0.0.1:${(peer.address() as AddressInfo).port}`, network: 'development', profile: 'spec' })
  const controller = new AbortController()
  const reading = (async () => {
    for await (const event of client.eventUpdates({ module: 'coin' }, { signal: controller.signal, idleTimeout: 100, retryDelay: 10 }))
      t.fail(`unexpected ${JSON.stringify(event)}`)
  })()
  t.ok(await eventually(() => asked.length >= 4), 'asked again after each silent attempt, with or without headers')
  controller.abort()
  await reading
  await t.rejects(client.eventUpdates({ module: 'coin' }, { idleTimeout: -1 }).next(), InvalidOptionError)
})
