import { get, type IncomingMessage } from 'node:http'
import { fill, reorg } from '@weft/devnet'
import type { StoreEvent } from '@weft/store'
import t, { type Test } from 'tap'
import { filledFolder, startNode } from '../fixtures/node.js'

interface Stream {
  readonly response: IncomingMessage
  /** The whole frames received so far, as text. */
  frames(): string[]
  destroy(): void
}

function open(url: string, headers: Record<string, string> = {}): Promise<Stream> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false, headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('error', () => {})
      const frames = () => {
        const text = Buffer.concat(chunks).toString('utf8')
        return text
          .slice(0, text.lastIndexOf('\n\n') + 2)
          .split(/(?<=\n\n)/)
          .filter((frame) => frame !== '')
      }
      resolve({ response, frames, destroy: () => response.destroy() })
    }).on('error', reject)
  })
}

const idOf = (frame: string) => /\nid:(\S+)\n\n$/.exec(frame)?.[1]
const retention = 40
const dir = await filledFolder(t, 'development', 60, 0.3)

// A node over the shared folder whose streams announce as the store's feed says, counted.
async function node(t: Test, profile: 'spec' | 'chainweb') {
  const server = await startNode(t, { data: dir, network: 'development', profile, keepAlive: 0, streamRetention: retention })
  let announced = 0
  server.store.subscribe((event: StoreEvent) => {
    if (profile === 'spec') announced += event.type === 'inserted' ? 1 : 0
    else if (event.type === 'cut') announced += event.joined.length
  })
  const base = `${server.url}/${profile === 'spec' ? 'chain' : 'chainweb'}/0.0/development`
  return { server, base, announced: () => announced }
}

for (const profile of ['spec', 'chainweb'] as const) {
  t.test(`${profile} profile: a client that comes back with the last id it saw is sent exactly what followed, byte for byte`, async (t) => {
    const { server, base, announced } = await node(t, profile)
    const steady = { header: await open(`${base}/header/updates`), block: await open(`${base}/block/updates`) }
    await until(() => server.eventClients().header === 1 && server.eventClients().block === 1, 'both streams open')
    await fill(server.store, { blocks: 12, forkRate: 0.4, seed: `resume ${profile} 1` })
    await reorg(server.store, { chains: [3, 4], depth: 2, seed: `resume ${profile}` })
    await fill(server.store, { blocks: 6, forkRate: 0.4, seed: `resume ${profile} 2` })
    t.ok(announced() > 12 && announced() + 2 < retention, `${announced()} announcements, all within the window`)
    for (const kind of ['header', 'block'] as const) {
      const total = announced()
      await until(() => steady[kind].frames().length === total, 'every announcement on the steady stream')
      const live = steady[kind].frames()
      const ids = live.map(idOf)
      t.equal(new Set(ids).size, total, `${kind}: an id on every event, each its own`)
      for (const from of [0, 3, total - 1]) {
        const resumed = await open(`${base}/${kind}/updates`, { 'last-event-id': ids[from]! })
        await until(() => resumed.frames().length === total - from - 1, 'the rest of the events on the resumed stream')
        t.same(resumed.frames(), live.slice(from + 1), `${kind}: after event ${from + 1}, the rest as it was sent live`)
        resumed.destroy()
      }
      const bySince = await open(`${base}/${kind}/updates?since=${encodeURIComponent(ids[4]!)}`)
      // Last-Event-ID wins over ?since= (a browser resends the URL it began with, and the newer id as the header).
      const both = await open(`${base}/${kind}/updates?since=${encodeURIComponent(ids[1]!)}`, { 'last-event-id': ids[4]! })
      await until(
        () => bySince.frames().length === total - 5 && both.frames().length === total - 5,
        'the events after the fifth on both resumed streams',
      )
      t.same(bySince.frames(), live.slice(5), `${kind}: ?since= resumes as Last-Event-ID does`)
      t.same(both.frames(), live.slice(5), `${kind}: Last-Event-ID before ?since=`)
      // Resumed clients go on with the live events.
      await fill(server.store, { blocks: 2, seed: `resume ${profile} ${kind}` })
      await until(
        () => steady[kind].frames().length === announced() && bySince.frames().length === announced() - 5,
        'the live events on the steady and resumed streams',
      )
      t.same(bySince.frames(), steady[kind].frames().slice(5), `${kind}: then the live events, none missed or twice`)
      bySince.destroy()
      both.destroy()
    }
    steady.header.destroy()
    steady.block.destroy()
  })
}

t.test('an id the node no longer keeps, or never gave, is answered with a ResumeFromPage event, then the live stream', async (t) => {
  const { server, base, announced } = await node(t, 'chainweb')
  const steady = await open(`${base}/header/updates`)
  await until(() => server.eventClients().header === 1, 'the header stream open')
  await fill(server.store, { blocks: retention + 10, seed: 'expire' })
  await until(() => steady.frames().length === announced(), 'every announcement on the steady stream')
  const ids = steady.frames().map(idOf)
  const epoch = ids[0]!.split('.')[0]
  const oldest = announced() - retention
  t.ok(oldest > 1, 'the first events left the window')
  const cases = [
    { id: ids[oldest - 2]!, code: 'EVENT_ID_EXPIRED', kind: 'header' },
    { id: `${epoch}.0`, code: 'EVENT_ID_EXPIRED', kind: 'block' },
    { id: 'fedcba9876543210.3', code: 'EVENT_ID_UNKNOWN', kind: 'header' },
    { id: `${epoch}.${announced() + 1}`, code: 'EVENT_ID_UNKNOWN', kind: 'header' },
    { id: 'not an id', code: 'EVENT_ID_UNKNOWN', kind: 'block' },
  ]
  for (const { id, code, kind } of cases) {
    const stream = await open(`${base}/${kind}/updates`, { 'last-event-id': id })
    t.equal(stream.response.statusCode, 200)
    await until(() => stream.frames().length === 1, 'one event on the stream')
    const [frame] = stream.frames()
    const match = /^event:ResumeFromPage\ndata:(.*)\nid:(\S+)\n\n$/.exec(frame!)
    t.ok(match, `${id}: one ResumeFromPage event`)
    const data = JSON.parse(match![1]!) as { code: string; detail: string; lastEventId: string }
    t.equal(data.code, code, `${id}: ${code}`)
    t.equal(data.lastEventId, id)
    t.match(data.detail, /page queries/)
    t.equal(match![2], ids.at(-1), 'its id is the last event sent: the stream goes on from there')
    stream.destroy()
  }
  t.ok(
    ids[oldest - 1] !== undefined && (await resumesAll(base, ids[oldest - 1]!, retention)),
    'the point before the oldest kept event still resumes',
  )
  const late = await open(`${base}/header/updates`, { 'last-event-id': 'x'.repeat(500) })
  await until(() => late.frames().length === 1, 'one event on the late stream')
  t.match(late.frames()[0], /"lastEventId":"x{128}\.\.\."/, 'a long id is quoted cut')
  const from = announced()
  await fill(server.store, { blocks: 3, seed: 'after the reset' })
  await until(() => late.frames().length === 1 + announced() - from, 'the live events on the late stream')
  t.same(late.frames().slice(1), steady.frames().slice(from), 'then the live events')
  const resumedAfterReset = await open(`${base}/header/updates`, { 'last-event-id': idOf(late.frames()[0]!)! })
  await until(() => resumedAfterReset.frames().length === announced() - from, 'the live events on the stream resumed after the reset')
  t.same(resumedAfterReset.frames(), steady.frames().slice(from), "the reset event's id resumes like any other")
  for (const stream of [steady, late, resumedAfterReset]) stream.destroy()
})

async function resumesAll(base: string, id: string, expected: number): Promise<boolean> {
  const stream = await open(`${base}/block/updates`, { 'last-event-id': id })
  await until(() => stream.frames().length >= expected, 'the expected number of frames')
  stream.destroy()
  return stream.frames().length === expected && stream.frames().every((frame) => frame.startsWith('event:BlockHeader\n'))
}

import { until } from '@weft/test-kit'
