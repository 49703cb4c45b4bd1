import { ClassicLevel } from 'classic-level'
import t, { type Test } from 'tap'
import { DescendingScan } from '../src/descending-scan.js'
import { blockKey, type ChainDb, heightOfBlockKey } from '../src/keys.js'

// Chain 3 holds `perHeight` blocks at each height 0..heights-1 (hash bytes: the height, then the index); chain 2 and 4 one each.
async function fill(t: Test, heights: number, perHeight: number): Promise<ChainDb> {
  const db = new ClassicLevel<Buffer, Buffer>(t.testdir(), { keyEncoding: 'buffer', valueEncoding: 'buffer' })
  await db.open()
  t.teardown(() => db.close())
  const operations = []
  for (let height = 0; height < heights; height++)
    for (let index = 0; index < perHeight; index++)
      operations.push({ type: 'put' as const, key: blockKey(3, height, hashAt(height, index)), value: Buffer.of(index) })
  operations.push({ type: 'put' as const, key: blockKey(2, 5, hashAt(5, 0)), value: Buffer.of(0) })
  operations.push({ type: 'put' as const, key: blockKey(4, 5, hashAt(5, 0)), value: Buffer.of(0) })
  await db.batch(operations)
  return db
}

function hashAt(height: number, index: number): Buffer {
  const hash = Buffer.alloc(32)
  hash.writeUInt32BE(height, 0)
  hash[4] = index
  return hash
}

t.test('a scan finds blocks of its chain at non-increasing heights, across batch boundaries', async (t) => {
  const db = await fill(t, 400, 3)
  const scan = new DescendingScan(db, 3, 399, 0)
  // Two lines asking at the same heights, the last index first: every candidate of a height stays until the walk goes lower.
  for (let height = 399; height >= 0; height -= 7) {
    const [last, first] = [await scan.find(hashAt(height, 2), height), await scan.find(hashAt(height, 0), height)]
    t.equal(last && heightOfBlockKey(last[0]), height)
    t.same(first?.[1], Buffer.of(0))
    if (t.passing() === false) break
  }
  await scan.close()
})

t.test('a scan answers undefined for a hash not at that height, and below its bottom or past the chain', async (t) => {
  const db = await fill(t, 50, 2)
  const scan = new DescendingScan(db, 3, 40, 10)
  t.equal(await scan.find(hashAt(30, 9), 30), undefined, 'no such block at the height')
  t.equal(await scan.find(hashAt(29, 0), 28), undefined, 'the block is at another height')
  t.ok(await scan.find(hashAt(10, 1), 10), 'at the bottom')
  t.equal(await scan.find(hashAt(9, 0), 9), undefined, 'below the bottom')
  t.equal(await scan.find(hashAt(0, 0), 0), undefined, 'still nothing once the scan is done')
  await scan.close()
  const empty = new DescendingScan(db, 7, 100, 0)
  t.equal(await empty.find(hashAt(5, 0), 5), undefined, 'a chain without blocks')
  await empty.close()
})
