import fc from 'fast-check'
import t from 'tap'
import { parseEventStream, type ServerSentEvent } from '../src/index.js'

async function collect(chunks: Array<Uint8Array | string>): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = []
  async function* source() {
    yield* chunks
  }
  for await (const event of parseEventStream(source())) events.push(event)
  return events
}

t.test('the contract framing gives one event per blank-line-terminated block', async (t) => {
  const text = 'event:BlockHeader\ndata:{"a":1}\n\n:\n\nevent:BlockHeader\ndata:{"a":2}\n\n'
  t.same(await collect([text]), [
    { event: 'BlockHeader', data: '{"a":1}' },
    { event: 'BlockHeader', data: '{"a":2}' },
  ])
})

t.test('one space after the colon is dropped, a second one is kept', async (t) => {
  t.same(await collect(['event: Named\ndata:  two spaces\n\n']), [{ event: 'Named', data: ' two spaces' }])
})

t.test('several data lines are joined with newlines and an unnamed event is called message', async (t) => {
  t.same(await collect(['data:first\ndata:second\ndata\n\n']), [{ event: 'message', data: 'first\nsecond\n' }])
})

t.test('CRLF and lone CR end lines like LF does', async (t) => {
  t.same(await collect(['event:A\r\ndata:1\r\n\r\nevent:B\rdata:2\r\r']), [
    { event: 'A', data: '1' },
    { event: 'B', data: '2' },
  ])
})

t.test('a CRLF split between two chunks ends one line, not two', async (t) => {
  t.same(await collect(['event:A\r', '\ndata:1\r', '\n\r', '\n']), [{ event: 'A', data: '1' }])
})

t.test('comments, unknown fields, events without data and an unterminated tail emit nothing', async (t) => {
  t.same(await collect([':comment\nid:7\nretry:10\nevent:Empty\n\ndata:unfinished']), [])
})

t.test('a multi-byte character split across byte chunks is decoded whole', async (t) => {
  const bytes = Buffer.from('data:héllo ✓\n\n')
  t.same(await collect([bytes.subarray(0, 7), bytes.subarray(7, 15), bytes.subarray(15)]), [{ event: 'message', data: 'héllo ✓' }])
})

t.test('any split of a stream into byte chunks gives the same events', async (t) => {
  const eventArbitrary = fc.record({
    event: fc.constantFrom('BlockHeader', 'Other'),
    data: fc.string({ unit: 'grapheme', maxLength: 30 }).filter((s) => !/[\r\n]/.test(s) && !s.startsWith(' ')),
  })
  await fc.assert(
    fc.asyncProperty(
      fc.array(eventArbitrary, { maxLength: 6 }),
      fc.constantFrom('\n', '\r\n', '\r'),
      fc.array(fc.nat(), { maxLength: 8 }),
      async (events, newline, cuts) => {
        const text = events.map((e) => `:keep-alive${newline}event:${e.event}${newline}data:${e.data}${newline}${newline}`).join('')
        const bytes = Buffer.from(text)
        const points = [...new Set(cuts.map((c) => (bytes.length === 0 ? 0 : c % bytes.length)))].sort((a, b) => a - b)
        const chunks: Uint8Array[] = []
        let start = 0
        for (const point of points) {
          chunks.push(bytes.subarray(start, point))
          start = point
        }
        chunks.push(bytes.subarray(start))
        const parsed = await collect(chunks)
        return JSON.stringify(parsed) === JSON.stringify(events.map((e) => ({ event: e.event, data: e.data })))
      },
    ),
    { numRuns: 200 },
  )
  t.pass('every generated stream and split parsed the same')
})
