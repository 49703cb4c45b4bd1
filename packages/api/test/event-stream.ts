import fc from 'fast-check'
import t from 'tap'
import { EventStreamParser, parseEventStream, type ServerSentEvent } from '../src/index.js'

t.test("Weft's frames and the real node's frames read the same", async (t) => {
  const parser = new EventStreamParser()
  t.same(parser.push('event:BlockHeader\ndata:{"a":1}\n\n'), [{ event: 'BlockHeader', data: '{"a":1}' }])
  t.same(parser.push('event: BlockHeader\ndata: {"a":2}\n\n'), [{ event: 'BlockHeader', data: '{"a":2}' }])
})

t.test('events split anywhere across chunks, every line end, comments and several data lines', async (t) => {
  const parser = new EventStreamParser()
  const text = ':\n\nevent:X\r\ndata:one\rdata:two\r\n\r\ndata\n\n: a comment\nid:7\nretry:5\ndata:last\n\n'
  const events = []
  for (const char of Buffer.from(text)) events.push(...parser.push(Buffer.of(char)))
  t.same(events, [
    { event: 'X', data: 'one\ntwo' },
    { event: 'message', data: '' },
    { event: 'message', data: 'last', id: '7' },
  ])
  t.same(parser.push('event:Y\n\n'), [], 'an event without data is no event')
  t.same(parser.push('data:é'), [], 'an unfinished line waits')
  t.same(parser.push('\n\n'), [{ event: 'message', data: 'é', id: '7' }], "the last id given stays the stream's")
})

t.test("an event's id is the last one given, after its data (as Weft writes it) or before, and one with a NUL is ignored", async (t) => {
  const parser = new EventStreamParser()
  t.same(parser.push('event:BlockHeader\ndata:{}\nid:e.1\n\n'), [{ event: 'BlockHeader', data: '{}', id: 'e.1' }])
  t.same(parser.push('id: e.2\ndata:{}\n\n'), [{ event: 'message', data: '{}', id: 'e.2' }])
  t.same(parser.push('id:e\u00003\ndata:{}\n\n'), [{ event: 'message', data: '{}', id: 'e.2' }])
  t.same(parser.push('id\ndata:{}\n\n'), [{ event: 'message', data: '{}', id: '' }], 'an empty id resets it')
})

t.test('a line or an event past the bound is an invalid response', async (t) => {
  const parser = new EventStreamParser({ maxEventChars: 100 })
  t.same(parser.push(`data:${'x'.repeat(90)}\n\n`), [{ event: 'message', data: 'x'.repeat(90) }], 'within the bound')
  parser.push('data:')
  parser.push('x'.repeat(60))
  t.throws(() => parser.push('x'.repeat(60)), { code: 'INVALID_RESPONSE', message: /at most 100 characters, received a line/ })
  const lines = new EventStreamParser({ maxEventChars: 100 })
  t.throws(() => lines.push('data:0123456789\n'.repeat(10)), { message: /an event's data/ }, 'short data lines that never end an event')
  const standard = new EventStreamParser()
  standard.push('data:')
  for (let i = 0; i < 15; i++) standard.push(Buffer.alloc(64 * 1024, 'x'))
  t.throws(() => standard.push(Buffer.alloc(64 * 1024, 'x')), { code: 'INVALID_RESPONSE' }, 'by default, 1 MiB')
})

t.test('a long line costs its length, not its length times its chunks', async (t) => {
  const chunk = Buffer.alloc(64 * 1024, 'x')
  const whole = Buffer.alloc(256 * chunk.length, 'x')
  // This process's CPU time (not the wall clock: another process on the machine does not count) of
  // parsing one 16 MiB data line given as `chunks`, the least of three tries.
  const cpuOf = (chunks: readonly Buffer[]): number => {
    let least = Number.POSITIVE_INFINITY
    for (let run = 0; run < 3; run++) {
      const parser = new EventStreamParser({ maxEventChars: 64 * 1024 * 1024 })
      const before = process.cpuUsage()
      parser.push('data:')
      let early = 0
      for (const part of chunks) early += parser.push(part).length
      const [event] = parser.push('\n\n')
      const used = process.cpuUsage(before)
      t.equal(early, 0, 'no event before the line ends')
      t.equal(event?.data.length, 16 * 1024 * 1024)
      least = Math.min(least, used.user + used.system)
    }
    return least
  }
  const inOne = cpuOf([whole])
  // 256 chunks: rescanning what came before at each chunk would read 2 GiB, 128 times the line.
  const inChunks = cpuOf(Array.from({ length: 256 }, () => chunk))
  t.ok(inChunks < 16 * Math.max(inOne, 1000), `256 chunks took ${inChunks} µs of CPU, one chunk ${inOne} µs`)
})

async function collect(chunks: Array<Uint8Array | string>, maxEventChars?: number): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = []
  async function* source() {
    yield* chunks
  }
  for await (const event of parseEventStream(source(), maxEventChars === undefined ? {} : { maxEventChars })) events.push(event)
  return events
}

t.test('the stream form keeps the bound', async (t) => {
  await t.rejects(collect(['data:', 'x'.repeat(20), 'x'.repeat(20)], 30), { code: 'INVALID_RESPONSE' })
})

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
