import fc from 'fast-check'
import t from 'tap'
import { descending, KeyReader, successor, textField, varintLength, writeVarint } from '../src/key-codec.js'

const encode = (value: number): Buffer => {
  const bytes = Buffer.alloc(varintLength(value) + 1)
  return bytes.subarray(0, writeVarint(bytes, 0, value))
}
const u32 = fc.oneof(
  fc.nat(300),
  fc.nat(70000),
  fc.nat(0xffffffff),
  fc.constantFrom(240, 241, 2287, 2288, 67823, 67824, 0xffffff, 0x1000000, 0xffffffff),
)

t.test('varints decode to their value and sort as their values do', async (t) => {
  fc.assert(
    fc.property(u32, u32, (a, b) => {
      const x = encode(a)
      const y = encode(b)
      const reader = new KeyReader(x)
      return x.length === varintLength(a) && reader.varint() === a && Math.sign(Buffer.compare(x, y)) === Math.sign(a - b)
    }),
    { numRuns: 3000 },
  )
  t.same([0, 240, 241, 2287, 2288, 67823, 67824, 0xffffff, 0x1000000].map(varintLength), [1, 1, 2, 2, 3, 3, 4, 4, 5])
})

t.test('the successor of a prefix is above every key that starts with it and below every other greater key', async (t) => {
  t.same(successor(Buffer.of(0x69, 0x65, 0x01)), Buffer.of(0x69, 0x65, 0x02))
  t.same(successor(Buffer.of(0x69, 0x65, 0xff, 0xff)), Buffer.of(0x69, 0x66))
  t.same(successor(Buffer.of(0x69, 0xff)), Buffer.of(0x6a))
})

t.test('texts carry their length, and a reader reads them back', async (t) => {
  const field = textField('été')!
  t.same(field, Buffer.from([0, 5, ...Buffer.from('été')]))
  const reader = new KeyReader(Buffer.concat([field, Buffer.of(0, 0, 0, 7)]))
  t.equal(reader.text(), 'été')
  t.equal(reader.u32(), 7)
  reader.done()
  t.throws(() => new KeyReader(Buffer.of(0, 9, 1)).text(), { code: 'INVALID_INDEX_KEY' })
  t.equal(descending(0), 0xffffffff)
})
