import { existsSync, mkdirSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { mountTmpfs, type Tmpfs } from '../src/index.js'

t.test('a tmpfs mount fills to what is asked, frees again, and is gone once its test ends', async (t) => {
  let path = ''
  await t.test('mounted', async (t) => {
    const disk = mountTmpfs(t, 4 * 1024 * 1024)
    if (disk === undefined) return
    path = disk.path
    const empty = await disk.freeBytes()
    t.ok(empty > 3 * 1024 * 1024, `${empty} bytes free on an empty 4 MiB mount`)
    await writeFile(join(disk.path, 'kept'), 'x')
    await disk.fill()
    t.ok((await disk.freeBytes()) < 64 * 1024, 'filled: less than one chunk free')
    await disk.free()
    t.ok((await disk.freeBytes()) >= empty - 8192, 'the space is free again, but for the small file kept')
    await disk.fill(1024 * 1024)
    const left = await disk.freeBytes()
    t.ok(left >= 1024 * 1024 - 64 * 1024 && left <= 1024 * 1024 + 64 * 1024, `about 1 MiB left free (${left})`)
  })
  if (path !== '') t.notOk(existsSync(path), 'unmounted and removed when its test ended')
})

t.test('filling stops on a full disk only: another failure is thrown', async (t) => {
  const disk = mountTmpfs(t, 1024 * 1024)
  if (disk === undefined) return
  mkdirSync(join(disk.path, 'filler'))
  await t.rejects(disk.fill(), { code: 'EISDIR' })
})

t.test('a refused mount skips its test and answers undefined', async (t) => {
  let answer: Tmpfs | undefined
  await t.test('refused', async (t) => {
    answer = mountTmpfs(t, Number.NaN)
  })
  t.equal(answer, undefined)
})
