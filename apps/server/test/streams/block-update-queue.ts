import { connect, type Socket } from 'node:net'
import { fill } from '@weft/devnet'
import { until } from '@weft/test-kit'
import t from 'tap'
import { filledFolder, startNode } from '../fixtures/node.js'
import { type Subscriber, subscribe } from '../fixtures/streams.js'

const base = '/chain/0.0/development'
const dir = await filledFolder(t, 'development', 40, 0)

// The block hashes a subscriber received, each with the time it arrived.
function arrivals(subscriber: Subscriber): Map<string, number> {
  const arrived = new Map<string, number>()
  let text = ''
  subscriber.response.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8')
    let end = text.indexOf('\n\n')
    while (end >= 0) {
      const frame = text.slice(0, end)
      text = text.slice(end + 2)
      const at = frame.indexOf('"hash":"', frame.lastIndexOf('"header":'))
      if (frame.startsWith('event:BlockHeader')) arrived.set(frame.slice(at + 8, at + 51), performance.now())
      end = text.indexOf('\n\n')
    }
  })
  return arrived
}

t.test('50 stalled /block/updates subscribers are cut while the others receive every block within a second', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', keepAlive: 0, maxBacklogBytes: 64 * 1024 })
  const readers = await Promise.all(Array.from({ length: 5 }, () => subscribe(`${server.url}${base}/block/updates`)))
  const received = readers.map(arrivals)
  const stalled: Socket[] = []
  for (let count = 0; count < 50; count++) {
    const socket = connect(server.port, '127.0.0.1')
    socket.on('error', () => {})
    // Never read: what the node writes piles up in the kernel's buffers, then in the node's.
    socket.pause()
    socket.write(`GET ${base}/block/updates HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)
    stalled.push(socket)
  }
  t.teardown(() => {
    for (const socket of stalled) socket.destroy()
    for (const reader of readers) reader.destroy()
  })
  await until(() => server.eventClients().block === 55, '55 block streams open')
  const inserted = new Map<string, number>()
  server.store.subscribe((event) => {
    if (event.type === 'inserted') inserted.set(event.header.hash.toString('base64url'), performance.now())
  })
  // Blocks at a steady pace, 20 every 20 ms, until the stalled ones are cut (a kernel takes a few MB first).
  let rounds = 0
  const stallStarted = performance.now()
  while (server.eventClients().block > 5 && rounds < 400) {
    await fill(server.store, { blocks: 20, seed: `stalled-${rounds}` })
    rounds++
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  t.equal(server.eventClients().block, 5, `the 50 stalled subscribers were cut after ${rounds * 20} blocks`)
  const stallMs = performance.now() - stallStarted
  await fill(server.store, { blocks: 20, seed: 'after-the-cut' })
  await until(() => received.every((arrived) => arrived.size === inserted.size), 'every inserted block at every stream')
  let worst = 0
  for (const arrived of received)
    for (const [hash, at] of inserted) worst = Math.max(worst, (arrived.get(hash) ?? Number.POSITIVE_INFINITY) - at)
  // A reader held back by the stalled subscribers would get the blocks of the stall only once they
  // were cut, about the stall's length after the first; on a busy machine every delivery is slower.
  t.ok(
    worst < Math.max(1000, stallMs / 2),
    `every reader received all ${inserted.size} blocks, the latest ${worst.toFixed(0)} ms after its insert (the stall lasted ${stallMs.toFixed(0)} ms)`,
  )
})

t.test('past the bound of events waiting for their payloads the subscribers are cut, and new ones are served', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', keepAlive: 0, maxPendingPayloads: 4 })
  const subscribers = await Promise.all([1, 2].map(() => subscribe(`${server.url}${base}/block/updates`)))
  const ended = subscribers.map((subscriber) => new Promise<void>((resolve) => subscriber.response.once('close', () => resolve())))
  await until(() => server.eventClients().block === 2, 'two block streams open')
  // One insert of many blocks announces them all at once: more events than the bound wait for their reads.
  await fill(server.store, { blocks: 100, seed: 'burst' })
  await Promise.all(ended)
  t.equal(server.eventClients().block, 0, 'both subscribers were cut')
  const metrics = await fetch(`${server.url}/metrics`).then((response) => response.text())
  t.match(metrics, /weft_event_stream_slow_disconnects_total\{stream="block"\} 2/)
  const again = await subscribe(`${server.url}${base}/block/updates`)
  t.teardown(() => again.destroy())
  await until(() => server.eventClients().block === 1, 'one block stream open')
  await fill(server.store, { blocks: 3, seed: 'after-the-burst' })
  await until(() => again.data().length === 3, 'three events on the block stream')
  t.pass('a new subscriber receives the next blocks')
})
