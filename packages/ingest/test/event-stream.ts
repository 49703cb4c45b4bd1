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
