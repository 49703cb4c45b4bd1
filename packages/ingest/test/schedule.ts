import { retryAfterMs } from '@weft/api'
import t from 'tap'
import { attemptDelay } from '../src/backoff.js'
import { stepSweep, tipSweep } from '../src/follow-step.js'
import { maxAnnounced, reduce, streamRetry } from '../src/schedule.js'
import { announcement, Simulation } from './fixtures/schedules.js'

// Streams that each live `lived` ms and give `events` events, opened again when the schedule says,
// for `ms`; a copy that comes due runs (and ends at once) before the next stream. Answers how many
// streams were opened, copies run, and each end's [attempt, delay].
function streamStorm(sim: Simulation, ms: number, events: number, lived: number) {
  const end = sim.now + ms
  let opened = 0
  const retries: Array<[number, number]> = []
  const copiesBefore = sim.started.filter((started) => started.work.kind === 'copy').length
  while (sim.now < end) {
    sim.on('connected')
    opened += 1
    sim.drain()
    sim.advance(lived)
    for (let at = 0; at < events; at++) sim.on('announce', { announcement: announcement(0, 1000 + opened) })
    sim.on('streamEnded', { events, bad: false, lived, random: 0 })
    const { attempt, delayMs } = streamRetry(sim.schedule, sim.now)
    retries.push([attempt, delayMs])
    sim.drain()
    sim.advance(delayMs)
  }
  const copies = sim.started.filter((started) => started.work.kind === 'copy').length - copiesBefore
  return { opened, copies, retries }
}

// Keeps the stream open and heard every second for `ms`.
function keepAlive(sim: Simulation, ms: number): void {
  for (let left = ms; left > 0; left -= 1000) sim.advance(Math.min(1000, left)).on('heard')
}

t.test('a new ingest copies first, then follows: it waits for the next event', async (t) => {
  const sim = new Simulation()
  t.equal(sim.schedule.phase, 'starting')
  t.same(sim.start(), { kind: 'copy' })
  t.equal(sim.schedule.phase, 'copying')
  t.same(sim.next(), { kind: 'wait', until: Number.POSITIVE_INFINITY }, 'nothing else while the copy runs')
  sim.done(100)
  t.equal(sim.schedule.phase, 'following')
  t.same(sim.next(), { kind: 'wait', until: Number.POSITIVE_INFINITY })
})

t.test('announcements make a step of all of them; those that come during the step are the next one', async (t) => {
  const sim = new Simulation().onStream()
  sim.on('announce', { announcement: announcement(0, 101) }).on('announce', { announcement: announcement(1, 101) })
  const step = sim.start()
  t.match(step, { kind: 'step', announcedAll: true })
  t.same(step.kind === 'step' && step.announced.map((a) => a.chain), [0, 1])
  sim.on('announce', { announcement: announcement(2, 102) })
  t.same(sim.next(), { kind: 'wait', until: Number.POSITIVE_INFINITY }, 'one step at a time')
  sim.done(2)
  const next = sim.start()
  t.same(next.kind === 'step' && next.announced.map((a) => a.chain), [2])
})

t.test('a step that finds a block too far above the store is followed by a copy', async (t) => {
  const sim = new Simulation().onStream().on('announce', { announcement: announcement(0, 5000) })
  sim.start()
  sim.done(0, 'far')
  t.same(sim.start(), { kind: 'copy' })
})

t.test(`past ${maxAnnounced} announcements pending, they are dropped for a read of the cut`, async (t) => {
  const sim = new Simulation().onStream()
  // Applied without the simulation's freezing, which would cost a moment per announcement.
  for (let height = 0; height <= maxAnnounced; height++)
    sim.schedule = reduce(sim.schedule, { type: 'announce', at: sim.now, announcement: announcement(0, height) })
  t.equal(sim.schedule.announced.length, 0)
  t.match(sim.start(), { kind: 'step', announced: [], announcedAll: false })
})

t.test('an upstream that takes over for being ahead has its cut read by the next step', async (t) => {
  const sim = new Simulation().onStream().on('switched')
  t.match(sim.start(), { kind: 'step', announcedAll: false })
})

t.test('follow: false ends after the copy; a failed round copies again after its backoff', async (t) => {
  const sim = new Simulation({ follow: false })
  sim.start()
  sim.fail(0)
  t.same(sim.next(), { kind: 'wait', until: 125 }, 'half the first backoff step at the least')
  sim.advance(125)
  t.same(sim.start(), { kind: 'copy' })
  sim.done(100)
  t.equal(sim.schedule.phase, 'stopped')
  t.same(sim.next(), { kind: 'end' })
})

t.test('with failFast a failed round ends ingest; without it, only a store failure does', async (t) => {
  const failFast = new Simulation({ failFast: true })
  failFast.start()
  failFast.fail()
  t.equal(failFast.schedule.phase, 'failed')
  t.same(failFast.next(), { kind: 'end' })
  const store = new Simulation()
  store.start()
  store.fail(0.5, true)
  t.same(store.next(), { kind: 'end' })
  store.on('stopped')
  t.equal(store.schedule.phase, 'failed', 'the end of the loop keeps the failure')
})

// The bugs fixed in ingest's scheduling since 0.1.0, each as the sequence that showed it.

t.test('638308b: a stream that gave events and came back during a copy gets a copy of its own once that one ends', async (t) => {
  const sim = new Simulation()
  sim.start()
  sim.on('connected')
  t.notOk(sim.schedule.copyDue, "the stream's first connection asks for no copy")
  sim.advance(5000).on('announce', { announcement: announcement(0, 7) })
  sim.on('streamEnded', { events: 1, bad: false, lived: 5000, random: 0 })
  sim.advance(streamRetry(sim.schedule, sim.now).delayMs).on('connected')
  t.same(sim.next(), { kind: 'wait', until: Number.POSITIVE_INFINITY }, 'the first copy still runs')
  sim.done(100)
  t.same(sim.start(), { kind: 'copy' }, 'then a copy for the gap')
  sim.done(0)
  t.match(sim.start(), { kind: 'step' }, 'then the announcement')
})

t.test('5721649: a short-lived stream is opened again after a growing backoff though it gave an event', async (t) => {
  const sim = new Simulation({ pollInterval: 100, retryDelay: 20, maxRetryDelay: 400 }).caughtUp()
  const { opened, copies, retries } = streamStorm(sim, 1500, 1, 5)
  t.ok(opened < 20, `${opened} streams in 1.5 s (173 before the fix)`)
  t.ok(copies <= opened, `${copies} copies, at most one per stream`)
  t.same(
    retries.slice(0, 4).map(([attempt]) => attempt),
    [1, 2, 3, 4],
    'each short stream in a row counts',
  )
  for (const [index, [, delay]] of retries.entries()) t.ok(delay >= Math.min(200, 10 * 2 ** index), `delay ${delay} ms`)
  sim.on('connected').advance(150)
  sim.on('streamEnded', { events: 1, bad: false, lived: 150, random: 0 })
  t.same(streamRetry(sim.schedule, sim.now), { delayMs: 20, attempt: 0 }, 'a stream that gave events for a poll resets the count')
})

t.test('475be40: a stream that answers and ends at once starts no copy, and is opened again after a growing backoff', async (t) => {
  const sim = new Simulation({ pollInterval: 100, retryDelay: 20, maxRetryDelay: 400 }).caughtUp()
  const { opened, copies, retries } = streamStorm(sim, 1500, 0, 1)
  t.ok(opened < 20, `${opened} streams in 1.5 s`)
  t.same(
    retries.slice(0, 4).map(([attempt]) => attempt),
    [1, 2, 3, 4],
    'each empty stream in a row counts',
  )
  t.equal(copies + streamStorm(sim, 8500, 0, 1).copies, 0, 'no copy in 10 s (37 before the fix)')
  t.ok(
    sim.started.some((started) => started.work.kind === 'step'),
    'each reconnection reads the cut instead',
  )
  const bad = new Simulation().onStream()
  bad.advance(20_000).on('streamEnded', { events: 3, bad: true, lived: 20_000, random: 0 })
  t.equal(streamRetry(bad.schedule, bad.now).attempt, 1, 'a stream that broke the contract counts too')
})

t.test('9c072cc: the first connection of the stream, even after a copy that ended before it, starts no second copy', async (t) => {
  const sim = new Simulation().caughtUp().on('connected')
  t.match(sim.start(), { kind: 'step', announcedAll: false }, 'a read of the cut')
})

t.test('475be40: a step whose announcements may not name every block sweeps for orphans (announcedAll false)', async (t) => {
  const refused = new Simulation().caughtUp().on('streamRefused')
  refused.advance(10_000)
  t.match(refused.start(), { kind: 'step', announcedAll: false }, 'a spec upstream without a stream: by cut polls, swept')
  const silent = new Simulation().onStream()
  silent.advance(10_000)
  t.match(silent.start(), { kind: 'step', announcedAll: false }, 'a stream silent for a poll')
  const open = new Simulation().onStream()
  keepAlive(open, 25_000)
  t.same(open.next(), { kind: 'wait', until: Number.POSITIVE_INFINITY }, 'a stream heard from reads no cut of its own')
  open.on('announce', { announcement: announcement(3, 200) })
  t.match(open.start(), { kind: 'step', announcedAll: true }, 'the only complete case: open since the last step, heard, nothing dropped')
})

t.test('475be40: an orphan written late, by an upstream that then stops, is swept once the upstream is quiet', async (t) => {
  const sim = new Simulation().onStream()
  keepAlive(sim, 29_000)
  t.same(sim.next(), { kind: 'wait', until: Number.POSITIVE_INFINITY }, 'not quiet yet')
  keepAlive(sim, 1000)
  t.same(sim.start(), { kind: 'sweep' }, 'three polls without a block or an announcement after a copy')
  sim.done(1)
  keepAlive(sim, 100_000)
  t.same(sim.next(), { kind: 'wait', until: Number.POSITIVE_INFINITY }, 'once: until a copy or a sweeping step writes again')
  sim.on('announce', { announcement: announcement(0, 300) })
  sim.start()
  sim.done(2, 'swept')
  for (let at = 0; at < 5; at++) {
    keepAlive(sim, 15_000)
    sim.on('announce', { announcement: announcement(0, 301 + at) })
    t.match(sim.start(), { kind: 'step' }, 'announcements keep the upstream from being quiet')
    sim.done(1, 'done')
  }
  keepAlive(sim, 40_000)
  t.same(sim.start(), { kind: 'sweep' }, 'then quiet again: swept')
})

t.test('a sweep of the tips that came due is not put off by cut reads that each outlast a poll', async (t) => {
  // test/ingest.ts's 'orphans of the copy too' failed so on a loaded machine, before and after the
  // schedule was a decision: the stream silent, each poll asked for a cut read, and each read took
  // longer than a poll.
  const sim = new Simulation({ pollInterval: 100 }).onStream()
  const kinds: string[] = []
  for (let step = 0; step < 10 && !kinds.includes('sweep'); step++) {
    sim.advance(150)
    const work = sim.next()
    if (work.kind === 'wait') continue
    kinds.push(sim.start().kind)
    sim.advance(150)
    sim.done()
  }
  t.ok(kinds.includes('sweep'), `${kinds.join(', ')}: swept`)
  t.ok(kinds.indexOf('sweep') <= 3, 'at the first turn once quiet')
})

t.test('79f27c0: the sweep of a quiet upstream reads up to each tip, never above it', async (t) => {
  const tips = new Map([
    [0, { height: 500 }],
    [1, { height: 498 }],
  ])
  t.same(
    [...tipSweep(tips, 16)],
    [
      [0, { minheight: 484, maxheight: 500 }],
      [1, { minheight: 482, maxheight: 498 }],
    ],
  )
  t.same([...tipSweep(new Map([[2, { height: 0 }]]), 0)], [[2, { minheight: 0, maxheight: 0 }]], 'from genesis')
  const written = [
    { chainId: 4, height: 30 },
    { chainId: 4, height: 28 },
  ]
  t.same([...stepSweep(written, 0)], [[4, { minheight: 27, maxheight: undefined }]], "a step's sweep: from below its new blocks up")
})

t.test("475be40: stop() during a failed round's backoff is a stop, not a failure", async (t) => {
  const sim = new Simulation().onStream().on('announce', { announcement: announcement(0, 101) })
  sim.start()
  sim.fail(0.5)
  t.match(sim.next(), { kind: 'wait' })
  sim.on('stopped')
  t.same(sim.next(), { kind: 'end' })
  t.equal(sim.schedule.phase, 'stopped')
})

t.test('475be40: Retry-After: 0, or a date already past, is a floor under the backoff, not a replacement', async (t) => {
  const backoff = { baseMs: 250, maxMs: 30_000 }
  const past = retryAfterMs(new Date(Date.now() - 5000).toUTCString())
  t.equal(past, 0)
  for (const retryAfter of [0, past])
    t.equal(attemptDelay(1, retryAfter, backoff, 0), 125, `Retry-After ${retryAfter}: half the first step at the least`)
  t.equal(attemptDelay(1, 2000, backoff, 0.5), 2000, 'a longer one is honoured')
  t.equal(attemptDelay(1, 10 * 3_600_000, backoff, 0.5), 3_600_000, 'up to an hour')
  // An upstream that answers 503 with Retry-After: 0 to every request, for 3 s.
  let asked = 0
  for (let at = 0, failures = 0; at < 3000 && asked < 10_000; asked++) at += attemptDelay(++failures, 0, backoff, 0)
  t.ok(asked <= 5, `${asked} requests in 3 s (9,000 before the fix)`)
})
