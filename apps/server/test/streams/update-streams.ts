import { get, type IncomingMessage } from 'node:http'
import { connect } from 'node:net'
import { type Header, headerToJson, headerToJsonText, powHashHex, targetHex } from '@weft/block'
import { fill } from '@weft/devnet'
import type { StoreEvent } from '@weft/store'
import { until } from '@weft/test-kit'
import type { HeaderUpdate, PayloadWithOutputs } from '@weft/types'
import t, { type Test } from 'tap'
import type { RunningServer } from '../../src/index.js'
import { alphabeticalHeaderJson } from '../../src/streams/event-data.js'
import { filledFolder, startNode } from '../fixtures/node.js'

interface Subscriber {
  response: IncomingMessage
  received(): Buffer
  destroy(): void
}

function subscribe(url: string): Promise<Subscriber> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false, headers: { accept: 'text/html' } }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('error', () => {})
      resolve({ response, received: () => Buffer.concat(chunks), destroy: () => response.destroy() })
    }).on('error', reject)
  })
}

// The chainweb profile writes the header as the real node does (checked against its text in event-data.ts);
// the id line, after the data, is the only addition to the real node's event.
function expectedFrame(header: Header, txCount: number, profile: 'spec' | 'chainweb', id: string): string {
  const headerJson = profile === 'spec' ? headerToJsonText(header, 'spec') : alphabeticalHeaderJson(header)
  return `event:BlockHeader\ndata:{"header":${headerJson},"powHash":"${powHashHex(header)}","target":"${targetHex(header.target)}","txCount":${txCount}}\nid:${id}\n\n`
}

// The epoch of the ids a stream's first event carries (a node that just started numbers from 1).
function epochOf(text: string): string {
  const epoch = /\nid:([0-9a-f]{16})\.1\n\n/.exec(text)?.[1]
  if (epoch === undefined) throw new Error(`no first id in ${text.slice(0, 200)}`)
  return epoch
}

// The data of a /block/updates frame; /header/updates frames lack the payload.
type UpdateData = HeaderUpdate & { payloadWithOutputs?: PayloadWithOutputs }

function framesOf(text: string): Array<{ event: string; data: UpdateData; id: string }> {
  t.ok(text.endsWith('\n\n') || text === '', 'the stream ends at a frame boundary')
  return text
    .split('\n\n')
    .filter((frame) => frame !== '')
    .map((frame) => {
      const [event, data, id, ...rest] = frame.split('\n')
      if (rest.length > 0 || !event!.startsWith('event:') || !data!.startsWith('data:') || !id?.startsWith('id:'))
        throw new Error(`bad frame ${frame.slice(0, 80)}`)
      return { event: event!.slice(6), data: JSON.parse(data!.slice(5)) as UpdateData, id: id.slice(3) }
    })
}

const dir = await filledFolder(t, 'development', 60, 0.3)

async function watchStore(
  server: RunningServer,
): Promise<{ inserted: Array<{ header: Header; txCount: number }>; joined: Array<{ header: Header; txCount: number }> }> {
  const inserted: Array<{ header: Header; txCount: number }> = []
  const joined: Array<{ header: Header; txCount: number }> = []
  server.store.subscribe((event: StoreEvent) => {
    if (event.type === 'inserted') inserted.push({ header: event.header, txCount: event.txCount })
    else joined.push(...event.joined.map((block) => ({ header: block.header, txCount: block.txCount })))
  })
  return { inserted, joined }
}

for (const profile of ['spec', 'chainweb'] as const) {
  t.test(`${profile} profile: every announced header reaches every subscriber once, byte for byte`, async (t: Test) => {
    const server = await startNode(t, { data: dir, network: 'development', profile, keepAlive: 0 })
    const base = `${server.url}/${profile === 'spec' ? 'chain' : 'chainweb'}/0.0/development`
    const subscribers = await Promise.all([1, 2, 3].map(() => subscribe(`${base}/header/updates`)))
    const blockSubscriber = await subscribe(`${base}/block/updates`)
    for (const s of [...subscribers, blockSubscriber]) {
      t.equal(s.response.statusCode, 200)
      t.equal(s.response.headers['content-type'], 'text/event-stream')
      t.equal(s.response.headers['access-control-allow-origin'], '*')
      t.ok(s.response.headers['x-peer-addr'], 'common headers on the stream')
    }
    await until(
      () => server.eventClients().header === 3 && server.eventClients().block === 1,
      'three header streams and one block stream open',
    )
    await new Promise((resolve) => setTimeout(resolve, 50))
    t.equal(subscribers[0]!.received().length, 0, 'no initial event')
    const seen = await watchStore(server)
    const summary = await fill(server.store, { blocks: 120, forkRate: 0.3, seed: `stream-${profile}` })
    t.ok(summary.orphans > 0, 'the new blocks include forks')
    const announced = profile === 'spec' ? seen.inserted : seen.joined
    t.equal(seen.inserted.length, 120)
    if (profile === 'chainweb') t.ok(announced.length < seen.inserted.length, 'orphans are not announced')
    await until(() => subscribers[0]!.received().length > 0, 'the first bytes on the first stream')
    const epoch = epochOf(subscribers[0]!.received().toString())
    const expected = announced
      .map(({ header, txCount }, index) => expectedFrame(header, txCount, profile, `${epoch}.${index + 1}`))
      .join('')
    await until(() => subscribers.every((s) => s.received().length >= Buffer.byteLength(expected)), 'every frame on every header stream')
    for (const s of subscribers) {
      t.equal(s.received().toString(), expected, 'byte for byte')
      const hashes = framesOf(s.received().toString()).map((frame) => frame.data.header.hash)
      t.equal(new Set(hashes).size, hashes.length, 'each header once')
    }
    // Count whole frames only: the stream may stop mid-frame between two reads.
    await until(
      () => blockSubscriber.received().toString().split('\n\n').length - 1 === announced.length,
      'every announcement on the block stream',
    )
    const blockFrames = framesOf(blockSubscriber.received().toString())
    for (const [index, frame] of blockFrames.entries()) {
      const { header, txCount } = announced[index]!
      t.equal(frame.event, 'BlockHeader')
      t.equal(frame.id, `${epoch}.${index + 1}`, 'the same ids as the header stream')
      t.same(
        Object.keys(frame.data),
        profile === 'spec'
          ? ['header', 'powHash', 'target', 'txCount', 'payloadWithOutputs']
          : ['header', 'payloadWithOutputs', 'powHash', 'target', 'txCount'],
      )
      if (profile === 'chainweb')
        t.same(Object.keys(frame.data.payloadWithOutputs!), [...Object.keys(frame.data.payloadWithOutputs!)].sort())
      t.same(frame.data.header, headerToJson(header, profile))
      t.equal(frame.data.txCount, txCount)
      t.same(frame.data.payloadWithOutputs, JSON.parse((await server.store.getPayloadJson(header.payloadHash))!.toString()))
    }
    for (const s of [...subscribers, blockSubscriber]) s.destroy()
    await until(() => server.eventClients().header === 0 && server.eventClients().block === 0, 'every stream closed')
    t.pass('nothing is kept after the subscribers left')
  })
}

t.test('an idle stream on the node gets a keep-alive comment', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', keepAlive: 0.15 })
  const subscriber = await subscribe(`${server.url}/chain/0.0/development/header/updates`)
  // Two comments or more: a poll on a busy machine may first look after the third.
  await until(() => /^(?::\n\n){2,}$/.test(subscriber.received().toString()), 'two keep-alive comments')
  t.pass('comments alone, one per idle period')
  subscriber.destroy()
})

t.test('a stalled subscriber is cut off while the others keep receiving', async (t) => {
  const server = await startNode(t, { data: dir, network: 'development', keepAlive: 0, maxBacklogBytes: 256 * 1024 })
  const base = `${server.url}/chain/0.0/development`
  const readers = await Promise.all([subscribe(`${base}/block/updates`), subscribe(`${base}/block/updates`)])
  const stalled = connect(server.port, '127.0.0.1')
  stalled.on('error', () => {})
  stalled.pause()
  stalled.write('GET /chain/0.0/development/block/updates HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
  await until(() => server.eventClients().block === 3, 'three block streams open')
  const seen = await watchStore(server)
  let rounds = 0
  // The kernel takes a few megabytes before the server sees any backlog; add blocks until it does.
  while (server.eventClients().block === 3 && rounds < 30) {
    await fill(server.store, { blocks: 100, seed: `stall-${rounds}` })
    rounds++
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  t.equal(server.eventClients().block, 2, `cut off after ${rounds * 100} blocks`)
  await fill(server.store, { blocks: 40, seed: 'after-the-stall' })
  await until(() => readers.every((r) => framesOf(r.received().toString()).length === seen.inserted.length), 'every frame at every reader')
  for (const reader of readers) {
    t.same(
      framesOf(reader.received().toString()).map((frame) => frame.data.header.hash),
      seen.inserted.map(({ header }) => header.hash.toString('base64url')),
      'the readers received every header',
    )
  }
  t.equal(server.eventClients().block, 2)
  stalled.destroy()
  for (const reader of readers) reader.destroy()
})
