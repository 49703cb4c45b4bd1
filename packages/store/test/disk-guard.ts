import { join } from 'node:path'
import { ClassicLevel } from 'classic-level'
import t from 'tap'
import { DiskGuard, freeBytesOf, type WriteState } from '../src/disk-guard.js'
import { StoreFullError } from '../src/index.js'
import { mountTmpfs } from './fixtures/tmpfs.js'

const key = (index: number): Buffer => Buffer.from(`k${String(index).padStart(6, '0')}`)

t.test(
  'an error LevelDB latched (a table flush that failed for want of space) is cleared by opening the database again under the guard',
  async (t) => {
    const disk = mountTmpfs(t, 4 * 1024 * 1024)
    if (disk === undefined) return
    const path = join(disk.path, 'db')
    // Small memtables: their flushes to tables are what meets the full disk, and LevelDB latches that.
    const db = new ClassicLevel<Buffer, Buffer>(path, { keyEncoding: 'buffer', valueEncoding: 'buffer', writeBufferSize: 256 * 1024 })
    t.teardown(() => db.close())
    await db.open()
    const states: WriteState[] = []
    const guard = new DiskGuard({
      db,
      path,
      syncWrites: false,
      checks: { firstMs: 1500, maxMs: 200, resumeFreeBytes: 1024 * 1024 },
      onChange: (state) => states.push(state),
    })
    t.teardown(() => guard.close())
    await disk.fill(900 * 1024)
    let acked = 0
    let failure: unknown
    for (; acked < 2000 && failure === undefined; acked++) {
      try {
        await guard.write(() => db.put(key(acked), Buffer.from(crypto.getRandomValues(new Uint8Array(4000)))))
      } catch (error) {
        failure = error
        acked--
      }
    }
    t.ok(failure instanceof StoreFullError, 'the full disk is STORE_FULL')
    t.match(
      (failure as Error).cause,
      { code: 'LEVEL_IO_ERROR', message: /No space left on device/ },
      "classic-level's IO error is the cause",
    )
    await disk.free()
    // Before the guard's first check: with room again, LevelDB still refuses every write.
    await t.rejects(db.put(Buffer.from('raw'), Buffer.from('x')), { message: /No space left on device/ }, 'LevelDB latched the error')
    await guard.whenWritable()
    t.same(
      states.map((state) => state.writable),
      [false, true],
    )
    await guard.write(() => db.put(Buffer.from('after'), Buffer.from('x')))
    await db.close()
    await db.open()
    t.equal(
      (await db.getMany(Array.from({ length: acked }, (_, index) => key(index)))).filter((value) => value === undefined).length,
      0,
      `all ${acked} acknowledged keys kept`,
    )
    t.same(await db.get(Buffer.from('after')), Buffer.from('x'))
  },
)

t.test('the free bytes of a folder that is not there are unknown: -1', async (t) => {
  const missing = join(t.testdir(), 'missing')
  t.equal(await freeBytesOf(missing), -1)
  const error = new StoreFullError(missing, -1)
  t.match(
    error,
    { code: 'STORE_FULL', path: missing, freeBytes: -1, message: /its disk is full \(unknown bytes free\)/ },
    'the message says so',
  )
})
