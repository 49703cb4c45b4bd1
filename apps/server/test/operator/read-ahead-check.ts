import t from 'tap'
import { readAheadLimit, readAheadWarning } from '../../src/operator/read-ahead-check.js'

t.test('a read-ahead up to 256 KiB, or one not known, is not worth a word', async (t) => {
  t.equal(readAheadWarning('/srv/weft', undefined), undefined, 'not known: tmpfs, overlay, not Linux')
  t.equal(readAheadWarning('/srv/weft', { device: 'nvme0n1', bytes: 128 * 1024 }), undefined, "Linux's default")
  t.equal(readAheadWarning('/srv/weft', { device: 'nvme0n1', bytes: readAheadLimit }), undefined, 'the limit itself')
  t.equal(readAheadWarning('/srv/weft', { device: 'nvme0n1', bytes: 0 }), undefined, 'none at all')
})

t.test('above it, the warning names the folder, the disk, its read-ahead and the command that fixes it', async (t) => {
  const warning = readAheadWarning('/srv/weft', { device: 'vda', bytes: 8192 * 1024 })
  t.same(warning?.fields, { data: '/srv/weft', device: 'vda', readAheadKiB: 8192 })
  t.match(warning?.message, /disk vda reads ahead 8192 KiB/)
  t.match(warning?.message, /echo 128 > \/sys\/block\/vda\/queue\/read_ahead_kb/)
  t.same(readAheadWarning('/d', { device: 'dm-0', bytes: readAheadLimit + 4096 })?.fields, {
    data: '/d',
    device: 'dm-0',
    readAheadKiB: 260,
  })
})
