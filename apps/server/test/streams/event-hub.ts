import { createServer, get, type IncomingMessage, type ServerResponse } from 'node:http'
import { connect } from 'node:net'
import { until } from '@weft/test-kit'
import fc from 'fast-check'
import t, { type Test } from 'tap'
import { chunkOf, eventFrame, keepAliveFrame } from '../../src/streams/event-frames.js'
import { EventHub } from '../../src/streams/event-hub.js'

interface Subscriber {
  received(): Buffer
  closed: Promise<void>
  destroy(): void
}

function subscribe(url: string): Promise<Subscriber> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (res: IncomingMessage) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      const closed = new Promise<void>((done) => res.once('close', () => done()))
      resolve({ received: () => Buffer.concat(chunks), closed, destroy: () => res.destroy() })
    }).on('error', reject)
  })
}

// A server on 127.0.0.1 that hands every request to `handle`; closed with the hub after the test.
async function listenWith(t: Test, hub: EventHub, handle: (res: ServerResponse) => void): Promise<string> {
  const server = createServer((_req, res) => handle(res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    hub.close()
    server.closeAllConnections()
    return new Promise<void>((resolve) => server.close(() => resolve()))
  })
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/`
}

async function hubServer(
  t: Test,
  hub: EventHub,
  onRequest?: (res: ServerResponse, index: number) => void,
): Promise<{ url: string; writes: Array<{ res: ServerResponse; chunk: unknown }> }> {
  const writes: Array<{ res: ServerResponse; chunk: unknown }> = []
  let requests = 0
  const url = await listenWith(t, hub, (res) => {
    // Records what each response and its socket are handed, to see that every client gets the same Buffer object.
    const write = res.write.bind(res) as (chunk: unknown) => boolean
    res.write = ((chunk: unknown) => {
      writes.push({ res, chunk })
      return write(chunk)
    }) as typeof res.write
    const socket = res.socket!
    const socketWrite = socket.write.bind(socket) as (chunk: unknown) => boolean
    socket.write = ((chunk: unknown) => {
      writes.push({ res, chunk })
      return socketWrite(chunk)
    }) as typeof socket.write
    if (onRequest === undefined) hub.attach(res)
    else onRequest(res, requests++)
  })
  return { url, writes }
}

t.test('a frame is exactly event:<name>, data:<json> and an empty line', async (t) => {
  t.equal(eventFrame('BlockHeader', ['{"a":', Buffer.from('1'), '}']).toString(), 'event:BlockHeader\ndata:{"a":1}\n\n')
  t.equal(keepAliveFrame.toString(), ':\n\n')
})

t.test('a chunk is the frame with its length in hex before it and CRLF after it', async (t) => {
  t.equal(chunkOf(keepAliveFrame).toString(), '3\r\n:\n\n\r\n')
  const frame = Buffer.alloc(300, 'x')
  t.equal(chunkOf(frame).toString(), `12c\r\n${'x'.repeat(300)}\r\n`)
})

t.test('every client receives every frame, the same Buffer object, and leaves nothing behind', async (t) => {
  const hub = new EventHub({ keepAliveMs: 0, maxBacklogBytes: 1 << 20 })
  const { url, writes } = await hubServer(t, hub)
  const subscribers = await Promise.all([subscribe(url), subscribe(url), subscribe(url)])
  await until(() => hub.size === 3, 'three subscribers in the hub')
  const frames = Array.from({ length: 50 }, (_, i) => eventFrame('BlockHeader', [JSON.stringify({ n: i })]))
  // Ten turns of the event loop, five frames published in each.
  for (let turn = 0; turn < 10; turn++) {
    for (const frame of frames.slice(turn * 5, turn * 5 + 5)) hub.publish(frame)
    t.equal(
      writes.filter((w) => Buffer.isBuffer(w.chunk) && w.chunk.includes('event:BlockHeader')).length,
      turn * 3,
      'nothing written inside the turn',
    )
    await new Promise((resolve) => setImmediate(resolve))
  }
  const expected = Buffer.concat(frames)
  await until(() => subscribers.every((s) => s.received().length >= expected.length), 'every frame at every subscriber')
  for (const s of subscribers) t.ok(s.received().equals(expected), 'byte for byte')
  // The responses and sockets written during the publishing, in order: one write per client and turn.
  const published = writes.filter((w) => Buffer.isBuffer(w.chunk) && w.chunk.includes('event:BlockHeader'))
  t.equal(published.length, 10 * 3, 'one write per client and turn, not per frame')
  for (let turn = 0; turn < 10; turn++) {
    const three = published.slice(turn * 3, turn * 3 + 3)
    t.ok(
      three.every((w) => w.chunk === three[0]!.chunk),
      'one shared Buffer per turn',
    )
    t.ok(
      (three[0]!.chunk as Buffer).equals(chunkOf(Buffer.concat(frames.slice(turn * 5, turn * 5 + 5)))),
      "the turn's frames as one pre-framed chunk",
    )
  }
  subscribers[0]!.destroy()
  await until(() => hub.size === 2, 'two subscribers in the hub')
  hub.publish(frames[0]!)
  subscribers[1]!.destroy()
  subscribers[2]!.destroy()
  await until(() => hub.size === 0, 'no subscriber in the hub')
  t.equal(hub.size, 0, 'no client is kept after it went away')
})

t.test('a client that comes in the turn of a publish gets none of the frames published before it came', async (t) => {
  const hub = new EventHub({ keepAliveMs: 0, maxBacklogBytes: 1 << 20 })
  const attached: ServerResponse[] = []
  const url = await listenWith(t, hub, (res) => {
    if (attached.length === 1) {
      // The second client arrives in the same turn as a publish that is not written yet.
      hub.publish(eventFrame('BlockHeader', ['{"n":1}']))
      hub.attach(res)
      hub.publish(eventFrame('BlockHeader', ['{"n":2}']))
    } else hub.attach(res)
    attached.push(res)
  })
  const first = await subscribe(url)
  await until(() => hub.size === 1, 'one subscriber in the hub')
  const second = await subscribe(url)
  await until(
    () => first.received().toString().includes('"n":2') && second.received().toString().includes('"n":2'),
    'the second frame at both subscribers',
  )
  t.equal(
    first.received().toString(),
    'event:BlockHeader\ndata:{"n":1}\n\nevent:BlockHeader\ndata:{"n":2}\n\n',
    'the first client gets both',
  )
  t.equal(second.received().toString(), 'event:BlockHeader\ndata:{"n":2}\n\n', 'the second only the one published after it came')
})

// A hub with one connected subscriber.
async function hubWithSubscriber(t: Test): Promise<{ hub: EventHub; url: string; subscriber: Subscriber }> {
  const hub = new EventHub({ keepAliveMs: 0, maxBacklogBytes: 1 << 20 })
  const { url } = await hubServer(t, hub)
  const subscriber = await subscribe(url)
  await until(() => hub.size === 1, 'one subscriber in the hub')
  return { hub, url, subscriber }
}

t.test('close writes the frames published in its turn before it ends the streams', async (t) => {
  const { hub, subscriber } = await hubWithSubscriber(t)
  hub.publish(eventFrame('BlockHeader', ['{"n":1}']))
  hub.close()
  await subscriber.closed
  t.equal(subscriber.received().toString(), 'event:BlockHeader\ndata:{"n":1}\n\n')
})

t.test('cutAll drops the frames not yet written with the clients', async (t) => {
  const { hub, url, subscriber } = await hubWithSubscriber(t)
  hub.publish(eventFrame('BlockHeader', ['{"n":1}']))
  hub.cutAll()
  await subscriber.closed
  t.equal(subscriber.received().length, 0, 'nothing written to a client that was cut')
  t.equal(hub.size, 0)
  const next = await subscribe(url)
  await until(() => hub.size === 1, 'one subscriber in the hub')
  hub.publish(eventFrame('BlockHeader', ['{"n":2}']))
  await until(() => next.received().length > 0, 'the first bytes at the next subscriber')
  t.equal(next.received().toString(), 'event:BlockHeader\ndata:{"n":2}\n\n', 'a client that comes after gets only what follows')
  next.destroy()
})

t.test('an HTTP/1.0 client, whose stream is not chunked, gets the bare frames', async (t) => {
  const hub = new EventHub({ keepAliveMs: 0, maxBacklogBytes: 1 << 20 })
  const { url } = await hubServer(t, hub)
  const socket = connect(Number(new URL(url).port), '127.0.0.1')
  const chunks: Buffer[] = []
  socket.on('data', (chunk: Buffer) => chunks.push(chunk))
  socket.write('GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n')
  t.teardown(() => socket.destroy())
  await until(() => hub.size === 1, 'one subscriber in the hub')
  const frames = [eventFrame('BlockHeader', ['{"n":1}']), eventFrame('BlockHeader', ['{"n":2}'])]
  for (const frame of frames) hub.publish(frame)
  const text = () => Buffer.concat(chunks).toString()
  await until(() => text().endsWith('{"n":2}\n\n'), 'the second frame')
  const [head, body] = text().split('\r\n\r\n')
  t.notMatch(head, /transfer-encoding/i, 'no chunked coding for HTTP/1.0')
  t.equal(body, frames.map(String).join(''), 'the frames, byte for byte')
})

t.test('an idle stream gets keep-alive comments, a busy one does not', async (t) => {
  const hub = new EventHub({ keepAliveMs: 150, maxBacklogBytes: 1 << 20 })
  const { url } = await hubServer(t, hub)
  const subscribed = performance.now()
  const subscriber = await subscribe(url)
  await until(() => hub.size === 1, 'one subscriber in the hub')
  const frame = eventFrame('BlockHeader', ['{}'])
  // Events every 30 ms: the idle timer never fires, unless a busy machine stretched a pause to
  // keepAliveMs, when a comment is due. The pauses are measured: the one before the first event
  // from the request (the stream began after it).
  const pauses: number[] = []
  let last = subscribed
  for (let i = 0; i < 10; i++) {
    pauses.push(performance.now() - last)
    last = performance.now()
    hub.publish(frame)
    await new Promise((resolve) => setTimeout(resolve, 30))
  }
  await until(() => subscriber.received().toString().endsWith(':\n\n:\n\n'), 'two keep-alive comments')
  // What came before each event, and after the last.
  const pieces = subscriber.received().toString().split(frame.toString())
  t.equal(pieces.length, 11, 'every event, whole')
  t.ok(
    pieces.every((text) => /^(?::\n\n)*$/.test(text)),
    'comments alone between them',
  )
  const early = pieces
    .slice(0, 10)
    .flatMap((text, index) => (text !== '' && pauses[index]! < 148 ? [`before event ${index}, after ${pauses[index]} ms`] : []))
  t.same(early, [], 'no comment while events flow')
  t.match(pieces[10], /^(?::\n\n){2,}$/, 'comments once they stopped')
  const disabled = new EventHub({ keepAliveMs: 0, maxBacklogBytes: 1 << 20 })
  const other = await hubServer(t, disabled)
  const quiet = await subscribe(other.url)
  await new Promise((resolve) => setTimeout(resolve, 400))
  t.equal(quiet.received().length, 0, 'keep-alive 0 sends nothing')
})

t.test('a stalled client is cut off past its backlog while the others keep receiving', async (t) => {
  const hub = new EventHub({ keepAliveMs: 0, maxBacklogBytes: 256 * 1024 })
  const { url } = await hubServer(t, hub)
  const readers = await Promise.all([subscribe(url), subscribe(url)])
  // A raw socket that sends its request and then never reads a byte.
  const stalled = connect(Number(new URL(url).port), '127.0.0.1')
  stalled.pause()
  const stalledClosed = new Promise<void>((resolve) => stalled.once('close', () => resolve()))
  stalled.on('error', () => {})
  stalled.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
  await until(() => hub.size === 3, 'three subscribers in the hub')
  const frame = eventFrame('BlockHeader', [JSON.stringify({ pad: 'x'.repeat(64 * 1024) })])
  let sent = 0
  while (hub.size === 3 && sent < 2000) {
    hub.publish(frame)
    sent++
    await new Promise((resolve) => setTimeout(resolve, 1))
  }
  t.equal(hub.size, 2, `the stalled client was cut off after ${sent} frames of ${frame.length} bytes`)
  // Reading now drains what the kernel held, then meets the end the server gave the stream.
  stalled.resume()
  await stalledClosed
  for (let i = 0; i < 20; i++) {
    hub.publish(frame)
    sent++
    await new Promise((resolve) => setTimeout(resolve, 1))
  }
  await until(() => readers.every((r) => r.received().length === sent * frame.length), 'every frame sent at every reader')
  t.equal(hub.size, 2, 'the readers are still connected')
  t.pass('the other clients received every frame')
})

t.test('close ends every stream and refuses new ones', async (t) => {
  const hub = new EventHub({ keepAliveMs: 1000, maxBacklogBytes: 1 << 20 })
  const { url } = await hubServer(t, hub)
  const subscriber = await subscribe(url)
  await until(() => hub.size === 1, 'one subscriber in the hub')
  hub.close()
  await subscriber.closed
  t.equal(hub.size, 0)
  const late = await new Promise<string>((resolve) =>
    get(url, { agent: false }, () => resolve('answered')).on('error', () => resolve('refused')),
  )
  t.equal(late, 'refused', 'a client arriving after close is dropped')
})

// The event frames (not keep-alive comments) written to each response, in order.
function framesWritten(writes: ReadonlyArray<{ res: ServerResponse; chunk: unknown }>): Map<ServerResponse, Buffer[]> {
  const byClient = new Map<ServerResponse, Buffer[]>()
  for (const { res, chunk } of writes) {
    if (!Buffer.isBuffer(chunk) || !chunk.includes('event:')) continue
    byClient.set(res, [...(byClient.get(res) ?? []), chunk])
  }
  return byClient
}

const eventWrites = (writes: ReadonlyArray<{ chunk: unknown }>) =>
  writes.filter((w) => Buffer.isBuffer(w.chunk) && w.chunk.includes('event:')).length

t.test('a sweep over more clients than a step yields to the event loop, and a batch published meanwhile joins it', async (t) => {
  // When each batch was reported written to every client: the number of writes made by then.
  const delivered: Array<{ writes: number; seconds: number }> = []
  const observer = {
    sent: () => {},
    cutOff: () => {},
    delivered: (seconds: number) => delivered.push({ writes: eventWrites(writes), seconds }),
  }
  const hub = new EventHub({ keepAliveMs: 0, maxBacklogBytes: 1 << 20, sweepStep: 2, observer })
  const { url, writes } = await hubServer(t, hub)
  const subscribers = await Promise.all(Array.from({ length: 5 }, () => subscribe(url)))
  await until(() => hub.size === 5, 'five subscribers in the hub')
  const a = eventFrame('BlockHeader', ['{"n":1}'])
  const b = eventFrame('BlockHeader', ['{"n":2}'])
  hub.publish(a)
  await Promise.resolve()
  t.equal(eventWrites(writes), 2, 'the first step writes two clients when the job ends, the rest wait for a turn')
  hub.publish(b)
  await Promise.resolve()
  t.equal(eventWrites(writes), 4, "the second batch's first step goes on where the sweep was")
  const both = Buffer.concat([a, b])
  await until(() => subscribers.every((s) => s.received().length >= both.length), 'both frames at every subscriber')
  for (const s of subscribers) t.ok(s.received().equals(both), 'every client has both frames, in order, once')
  const written = [...framesWritten(writes).values()]
  t.equal(written.length, 5)
  t.equal(eventWrites(writes), 7, 'one write per client and sweep it was behind in')
  t.equal(
    written.filter((chunks) => chunks.length === 2 && chunks[0]!.equals(chunkOf(a)) && chunks[1]!.equals(chunkOf(b))).length,
    2,
    'the two reached first get each batch on its own',
  )
  t.equal(
    written.filter((chunks) => chunks.length === 1 && chunks[0]!.equals(chunkOf(both))).length,
    3,
    'the three not reached yet get both batches in one chunk',
  )
  const joined = written.filter((chunks) => chunks.length === 1).map((chunks) => chunks[0])
  t.ok(
    joined.every((chunk) => chunk === joined[0]),
    'one shared Buffer for the clients behind by the same batches',
  )
  t.same(
    delivered.map((d) => d.writes),
    [5, 7],
    'each batch is reported delivered once, right after its last client was written',
  )
  t.ok(
    delivered.every((d) => d.seconds >= 0 && d.seconds < 5),
    'with the seconds since it was announced',
  )
})

t.test('clients that go away during a sweep are dropped and the others get every frame', async (t) => {
  const hub = new EventHub({ keepAliveMs: 0, maxBacklogBytes: 1 << 20, sweepStep: 1 })
  const { url } = await hubServer(t, hub)
  const subscribers = await Promise.all(Array.from({ length: 6 }, () => subscribe(url)))
  await until(() => hub.size === 6, 'six subscribers in the hub')
  const frames = Array.from({ length: 4 }, (_, n) => eventFrame('BlockHeader', [`{"n":${n}}`]))
  hub.publish(frames[0]!)
  await Promise.resolve()
  subscribers[2]!.destroy()
  subscribers[5]!.destroy()
  for (const frame of frames.slice(1)) {
    await new Promise((resolve) => setImmediate(resolve))
    hub.publish(frame)
  }
  const expected = Buffer.concat(frames)
  const staying = subscribers.filter((_, index) => index !== 2 && index !== 5)
  await until(
    () => hub.size === 4 && staying.every((s) => s.received().length >= expected.length),
    'four subscribers left, with every frame',
  )
  for (const s of staying) t.ok(s.received().equals(expected), 'all four frames, in order, once')
  hub.publish(eventFrame('BlockHeader', ['{"n":4}']))
  await until(
    () => staying.every((s) => s.received().toString().endsWith('{"n":4}\n\n')),
    'the fourth frame at every subscriber that stayed',
  )
  t.equal(hub.size, 4)
})

t.test('a client that comes during a sweep gets only the batches published after it came', async (t) => {
  const hub = new EventHub({ keepAliveMs: 0, maxBacklogBytes: 1 << 20, sweepStep: 1 })
  const first = eventFrame('BlockHeader', ['{"n":1}'])
  const second = eventFrame('BlockHeader', ['{"n":2}'])
  const { url } = await hubServer(t, hub, (res, index) => {
    if (index === 3) {
      // The fourth client arrives while the first frame has reached one client of three.
      hub.publish(first)
      hub.attach(res)
      hub.publish(second)
    } else hub.attach(res)
  })
  const earlier = await Promise.all(Array.from({ length: 3 }, () => subscribe(url)))
  await until(() => hub.size === 3, 'three subscribers in the hub')
  const late = await subscribe(url)
  const both = Buffer.concat([first, second])
  await until(
    () => earlier.every((s) => s.received().length >= both.length) && late.received().length >= second.length,
    'both frames at the earlier subscribers and the second at the late one',
  )
  for (const s of earlier) t.ok(s.received().equals(both), 'the clients that were there get both')
  t.ok(late.received().equals(second), 'the late one only the frame published after it came')
})

t.test('close finishes a running sweep before it ends the streams', async (t) => {
  const hub = new EventHub({ keepAliveMs: 0, maxBacklogBytes: 1 << 20, sweepStep: 1 })
  const { url, writes } = await hubServer(t, hub)
  const subscribers = await Promise.all(Array.from({ length: 3 }, () => subscribe(url)))
  await until(() => hub.size === 3, 'three subscribers in the hub')
  const frame = eventFrame('BlockHeader', ['{"n":1}'])
  hub.publish(frame)
  await Promise.resolve()
  t.equal(eventWrites(writes), 1, 'one client written when close is called')
  hub.close()
  await Promise.all(subscribers.map((s) => s.closed))
  for (const s of subscribers) t.ok(s.received().equals(frame), 'each got the frame before its end')
})

type HubStep =
  | { readonly kind: 'connect'; readonly midSweep: boolean }
  | { readonly kind: 'publish'; readonly frames: number }
  | { readonly kind: 'turn' }
  | { readonly kind: 'leave'; readonly pick: number }

t.test(
  'property: whatever clients come, go and publish, each one that stays gets exactly the frames published after it came, in order',
  async (t) => {
    const step = fc.oneof(
      { arbitrary: fc.boolean().map((midSweep): HubStep => ({ kind: 'connect', midSweep })), weight: 3 },
      { arbitrary: fc.integer({ min: 1, max: 3 }).map((frames): HubStep => ({ kind: 'publish', frames })), weight: 4 },
      { arbitrary: fc.constant<HubStep>({ kind: 'turn' }), weight: 2 },
      { arbitrary: fc.nat().map((pick): HubStep => ({ kind: 'leave', pick })), weight: 1 },
    )
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 3 }), fc.array(step, { minLength: 1, maxLength: 30 }), async (sweepStep, steps) => {
        const hub = new EventHub({ keepAliveMs: 0, maxBacklogBytes: 1 << 20, sweepStep })
        const frames: Buffer[] = []
        const publish = () => {
          const frame = eventFrame('BlockHeader', [`{"n":${frames.length}}`])
          frames.push(frame)
          hub.publish(frame)
        }
        let attached = 0
        // Set for a client that comes in the same turn as a publish, which the hub then sweeps.
        let publishBeforeAttach = false
        const server = createServer((_req, res) => {
          if (publishBeforeAttach) publish()
          publishBeforeAttach = false
          hub.attach(res)
          attached++
        })
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
        const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`
        // Every subscriber, with the number of frames published before it came.
        const clients: Array<{ subscriber: Subscriber; from: number; left: boolean }> = []
        try {
          for (const action of steps) {
            if (action.kind === 'connect') {
              // Counted by attaches, not by the hub's size: a client that left may not be gone yet.
              const before = attached
              publishBeforeAttach = action.midSweep
              const subscriber = await subscribe(url)
              await until(() => attached === before + 1, 'the client attached')
              clients.push({ subscriber, from: frames.length, left: false })
            } else if (action.kind === 'publish') {
              for (let index = 0; index < action.frames; index++) publish()
            } else if (action.kind === 'turn') {
              await new Promise((resolve) => setImmediate(resolve))
            } else {
              const staying = clients.filter((client) => !client.left)
              const leaving = staying[action.pick % Math.max(1, staying.length)]
              if (leaving !== undefined) {
                leaving.left = true
                leaving.subscriber.destroy()
              }
            }
          }
          const staying = clients.filter((client) => !client.left)
          const expected = (from: number) => Buffer.concat(frames.slice(from))
          await until(
            () => hub.size === staying.length && staying.every((c) => c.subscriber.received().length >= expected(c.from).length),
            'every frame at every client that stayed',
          )
          return staying.every((c) => c.subscriber.received().equals(expected(c.from)))
        } finally {
          hub.close()
          server.closeAllConnections()
          await new Promise<void>((resolve) => server.close(() => resolve()))
        }
      }),
      { numRuns: 100 },
    )
    t.pass('100 runs of up to 30 steps')
  },
)
