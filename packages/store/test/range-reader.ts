import { ClassicLevel } from 'classic-level'
import t, { type Test } from 'tap'
import { blockKey, blockKeyHigh, blockKeyLow, encodeBlockRecord } from '../src/keys.js'
import { RangeReader } from '../src/range-reader.js'

async function fill(t: Test, count: number) {
  const db = new ClassicLevel<Buffer, Buffer>(t.testdir(), { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  await db.open()
  t.teardown(() => db.close())
  const operations = Array.from({ length: count }, (_, i) => {
    const hash = Buffer.alloc(32, i % 251)
    const value = encodeBlockRecord({
      payloadHash: Buffer.alloc(32, 1),
      txCount: i,
      headerBinary: Buffer.from(`binary ${i}`),
      headerJson: Buffer.from(`{"n":${i}}`),
      payloadJson: '{}',
    })
    return { type: 'put' as const, key: blockKey(2, Math.floor(i / 2), hash), value }
  })
  await db.batch(operations)
  return db
}

async function drain(reader: AsyncIterable<{ height: number; headerJson: Buffer }>) {
  const seen: string[] = []
  for await (const item of reader) seen.push(`${item.height}:${item.headerJson.toString()}`)
  return seen
}

t.test('a long range yields every record once, in key order, across growing batches', async (t) => {
  const db = await fill(t, 3000)
  const reader = new RangeReader(db, async () => ({ gte: blockKeyLow(2, 0), lte: blockKeyHigh(2, 10_000) }))
  const seen = await drain(reader)
  t.equal(seen.length, 3000)
  const heights = seen.map((entry) => Number(entry.split(':')[0]))
  t.same(
    heights,
    [...heights].sort((a, b) => a - b),
  )
  t.equal(new Set(seen).size, 3000)
})

t.test('after the end, next keeps answering done', async (t) => {
  const db = await fill(t, 3)
  const reader = new RangeReader(db, async () => ({ gt: blockKey(2, 0, Buffer.alloc(32, 0)), lte: blockKeyHigh(2, 0) }))
  t.same(await drain(reader), ['0:{"n":1}'], 'gt leaves out the bound itself')
  t.same(await reader.next(), { value: undefined, done: true })
})

t.test('an empty range resolves done without opening an iterator', async (t) => {
  const db = await fill(t, 3)
  const reader = new RangeReader(db, async () => undefined)
  t.same(await reader.next(), { value: undefined, done: true })
  t.same(await reader.next(), { value: undefined, done: true })
})

t.test('an error computing the bounds surfaces on the first next, and the reader is then done', async (t) => {
  const db = await fill(t, 3)
  const reader = new RangeReader(db, async () => {
    throw new Error('no such cursor')
  })
  await t.rejects(reader.next(), /no such cursor/)
  t.same(await reader.next(), { value: undefined, done: true })
})

t.test('return releases the iterator mid-range so the database closes, and is safe to repeat', async (t) => {
  const db = new ClassicLevel<Buffer, Buffer>(t.testdir(), { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  await db.open()
  await db.put(
    blockKey(2, 0, Buffer.alloc(32)),
    encodeBlockRecord({
      payloadHash: Buffer.alloc(32),
      txCount: 0,
      headerBinary: Buffer.alloc(1),
      headerJson: Buffer.alloc(1),
      payloadJson: '{}',
    }),
  )
  await db.put(
    blockKey(2, 1, Buffer.alloc(32)),
    encodeBlockRecord({
      payloadHash: Buffer.alloc(32),
      txCount: 0,
      headerBinary: Buffer.alloc(1),
      headerJson: Buffer.alloc(1),
      payloadJson: '{}',
    }),
  )
  const reader = new RangeReader(db, async () => ({ gte: blockKeyLow(2, 0), lte: blockKeyHigh(2, 5) }))
  t.equal((await reader.next()).done, false)
  t.same(await reader.return(), { value: undefined, done: true })
  t.same(await reader.return(), { value: undefined, done: true })
  t.same(await reader.next(), { value: undefined, done: true })
  await db.close()
})
