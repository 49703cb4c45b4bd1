import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { readAheadIn } from '../src/device-read-ahead.js'
import { deviceReadAhead } from '../src/index.js'

// The device number (`major:minor`) of the mount that holds `path`, as /proc/self/mountinfo prints it.
function mountNumber(path: string): string | undefined {
  const real = realpathSync(path)
  let best: { point: string; number: string } | undefined
  for (const line of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
    const [, , number, , point] = line.split(' ')
    if (number === undefined || point === undefined) continue
    const inside = point === '/' || real === point || real.startsWith(`${point}/`)
    if (inside && (best === undefined || point.length >= best.point.length)) best = { point, number }
  }
  return best?.number
}

// The read-ahead found another way: the mount's number, the block device with that number in
// /proc/partitions, and its disk in /sys/class/block if it is a partition.
function expectedReadAhead(path: string): { device: string; bytes: number } | undefined {
  const number = mountNumber(path)
  // /proc/partitions: `major minor #blocks name`, after a heading and a blank line.
  for (const line of readFileSync('/proc/partitions', 'utf8').split('\n').slice(2)) {
    const fields = line.trim().split(/\s+/)
    if (fields.length < 4 || `${fields[0]}:${fields[1]}` !== number) continue
    const device = fields[3]!
    const disk = existsSync(`/sys/class/block/${device}/partition`)
      ? realpathSync(`/sys/class/block/${device}/..`).split('/').pop()!
      : device
    return { device: disk, bytes: Number(readFileSync(`/sys/class/block/${disk}/queue/read_ahead_kb`, 'utf8')) * 1024 }
  }
  return undefined
}

const linux = process.platform === 'linux' && existsSync('/proc/self/mountinfo')

t.test(
  'the read-ahead of the disk that holds a folder is the one sysfs gives for its mount',
  { skip: !linux && 'needs Linux' },
  async (t) => {
    const folder = t.testdir()
    const expected = expectedReadAhead(folder)
    t.same(await deviceReadAhead(folder), expected)
    if (expected !== undefined)
      t.ok(expected.bytes % 1024 === 0 && expected.device.length > 0, `${expected.device}: ${expected.bytes} bytes`)
  },
)

t.test('a folder not created yet is on the disk of its nearest existing parent', { skip: !linux && 'needs Linux' }, async (t) => {
  const folder = t.testdir()
  t.same(await deviceReadAhead(join(folder, 'not', 'yet')), await deviceReadAhead(folder))
  t.same(await deviceReadAhead('/weft-no-such-folder/store'), await deviceReadAhead('/'), 'up to the root')
})

t.test('a file system without a block device of its own has no read-ahead to report', { skip: !linux && 'needs Linux' }, async (t) => {
  t.equal(await deviceReadAhead('/proc/self'), undefined, 'proc')
  t.equal(await deviceReadAhead('/sys/kernel'), undefined, 'sysfs')
})

// A sysfs of our own: `dev/block/<number of the folder's mount>` links to a partition `disk0/part1`
// (no queue of its own); `disk0/queue/read_ahead_kb` holds `setting` unless it is undefined.
function fakeSysfs(root: string, folder: string, setting: string | undefined, linked = true): string {
  const sysfs = join(root, 'sys')
  mkdirSync(join(sysfs, 'devices', 'disk0', 'part1'), { recursive: true })
  mkdirSync(join(sysfs, 'dev', 'block'), { recursive: true })
  if (setting !== undefined) {
    mkdirSync(join(sysfs, 'devices', 'disk0', 'queue'))
    writeFileSync(join(sysfs, 'devices', 'disk0', 'queue', 'read_ahead_kb'), setting)
  }
  if (linked) symlinkSync('../../devices/disk0/part1', join(sysfs, 'dev', 'block', mountNumber(folder)!))
  return sysfs
}

t.test(
  "a partition reports its disk's read-ahead, and what sysfs does not say is not known",
  { skip: !linux && 'needs Linux' },
  async (t) => {
    const folder = t.testdir()
    const at = (name: string) => join(folder, name)
    for (const name of ['partition', 'garbage', 'negative', 'no-queue', 'unlinked']) mkdirSync(at(name))
    t.same(await readAheadIn(fakeSysfs(at('partition'), folder, '4096\n'), folder), { device: 'disk0', bytes: 4096 * 1024 })
    t.equal(await readAheadIn(fakeSysfs(at('garbage'), folder, 'lots\n'), folder), undefined, 'not a number')
    t.equal(await readAheadIn(fakeSysfs(at('negative'), folder, '-1'), folder), undefined, 'not a size')
    t.equal(await readAheadIn(fakeSysfs(at('no-queue'), folder, undefined), folder), undefined, 'no queue on the partition or its disk')
    t.equal(await readAheadIn(fakeSysfs(at('unlinked'), folder, '128', false), folder), undefined, 'no entry for the device')
  },
)
