import t from 'tap'
import { EventStreamParser } from '../src/event-stream.js'

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
    { event: 'message', data: 'last' },
  ])
  t.same(parser.push('event:Y\n\n'), [], 'an event without data is no event')
  t.same(parser.push('data:é'), [], 'an unfinished line waits')
  t.same(parser.push('\n\n'), [{ event: 'message', data: 'é' }])
})

t.test('a line or an event past the bound is a bad response', async (t) => {
  const parser = new EventStreamParser({ maxEventChars: 100 })
  t.same(parser.push(`data:${'x'.repeat(90)}\n\n`), [{ event: 'message', data: 'x'.repeat(90) }], 'within the bound')
  parser.push('data:')
  parser.push('x'.repeat(60))
  t.throws(() => parser.push('x'.repeat(60)), { code: 'UPSTREAM_BAD_RESPONSE', message: /at most 100 characters, received a line/ })
  const lines = new EventStreamParser({ maxEventChars: 100 })
  t.throws(() => lines.push('data:0123456789\n'.repeat(10)), { message: /an event's data/ }, 'short data lines that never end an event')
  const standard = new EventStreamParser()
  standard.push('data:')
  for (let i = 0; i < 15; i++) standard.push(Buffer.alloc(64 * 1024, 'x'))
  t.throws(() => standard.push(Buffer.alloc(64 * 1024, 'x')), { code: 'UPSTREAM_BAD_RESPONSE' }, 'by default, 1 MiB')
})

t.test('a long line costs its length, not its length times its chunks', async (t) => {
  const parser = new EventStreamParser({ maxEventChars: 64 * 1024 * 1024 })
  const chunk = Buffer.alloc(64 * 1024, 'x')
  const started = Date.now()
  parser.push('data:')
  // 16 MiB in 256 chunks: rescanning what came before at each chunk would read 2 GiB.
  let early = 0
  for (let i = 0; i < 256; i++) early += parser.push(chunk).length
  const [event] = parser.push('\n\n')
  t.equal(early, 0, 'no event before the line ends')
  const ms = Date.now() - started
  t.equal(event?.data.length, 16 * 1024 * 1024)
  t.ok(ms < 3000, `${ms} ms`)
})
