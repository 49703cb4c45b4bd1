import t from 'tap'
import { AnnouncementLog } from '../../src/streams/announcement-log.js'

const parts = { head: Buffer.from('{"header":{}'), tail: Buffer.from(',"txCount":0') }
const epoch = '0123456789abcdef'

function logOf(capacity: number, announcements: number): AnnouncementLog {
  const log = new AnnouncementLog(capacity, epoch)
  for (let index = 0; index < announcements; index++) log.append(parts, Buffer.alloc(32, index))
  return log
}

t.test('ids are <epoch>.<seq>, counted from 1, and a log of its own draws a random epoch', async (t) => {
  const log = logOf(3, 2)
  t.equal(log.head, 2)
  t.equal(log.idOf(log.head), `${epoch}.2`)
  const fresh = new AnnouncementLog(3)
  t.match(fresh.epoch, /^[0-9a-f]{16}$/)
  t.not(fresh.epoch, new AnnouncementLog(3).epoch, 'two starts, two epochs')
  t.equal(fresh.head, 0)
  t.equal(fresh.oldest, 1)
})

t.test("an id of the window is a point to resume from; older ones expired; others are not this log's", async (t) => {
  const log = logOf(3, 10)
  t.equal(log.oldest, 8)
  t.same(log.pointOf(`${epoch}.7`), { kind: 'resume', seq: 7 }, 'the point just before the oldest kept')
  t.same(log.pointOf(`${epoch}.10`), { kind: 'resume', seq: 10 }, 'the head: nothing to replay')
  t.same(log.pointOf(`${epoch}.6`), { kind: 'expired' })
  t.same(log.pointOf(`${epoch}.0`), { kind: 'expired' })
  t.same(log.pointOf(`${epoch}.11`), { kind: 'foreign' }, 'a sequence number not reached yet')
  t.same(log.pointOf(`fedcba9876543210.9`), { kind: 'foreign' }, 'another epoch')
  for (const id of ['', 'x', `${epoch}.`, `${epoch}.01`, `${epoch}.-1`, `${epoch.toUpperCase()}.9`, `${epoch}.9 `, `${epoch}.1e3`])
    t.same(log.pointOf(id), { kind: 'malformed' }, JSON.stringify(id))
  t.same(logOf(3, 2).pointOf(`${epoch}.0`), { kind: 'resume', seq: 0 }, 'before the first, while it is kept')
})

t.test("the announcements after a point come in order, across the ring's wrap", async (t) => {
  const log = logOf(4, 10)
  t.same(
    log.between(6, 10).map((entry) => entry.seq),
    [7, 8, 9, 10],
  )
  t.same(
    log.between(8, 9).map((entry) => entry.payloadHash[0]),
    [8],
    'up to a bound below the head',
  )
  t.same(log.between(10, 10), [])
})

t.test('a log that keeps nothing still numbers: only its head resumes', async (t) => {
  const log = logOf(0, 5)
  t.equal(log.oldest, 6)
  t.same(log.pointOf(`${epoch}.5`), { kind: 'resume', seq: 5 })
  t.same(log.pointOf(`${epoch}.4`), { kind: 'expired' })
  t.same(log.between(5, 5), [])
})
