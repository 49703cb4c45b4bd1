import fc from 'fast-check'
import t from 'tap'
import { attemptDelay, backoffDelay } from '../src/backoff.js'
import { streamRetry } from '../src/schedule.js'
import type { Announcement } from '../src/update-stream.js'
import { action, announce, history, play, settings } from './fixtures/histories.js'
import { Simulation } from './fixtures/schedules.js'

// Whether ingest ended (stopped or failed).
const over = (sim: Simulation): boolean => sim.schedule.phase === 'stopped' || sim.schedule.phase === 'failed'

// The least the backoff allows after the `failures`-th failure in a row: half its step.
const leastDelay = (failures: number, baseMs: number, maxMs: number): number => backoffDelay(failures, { baseMs, maxMs }, 0)

const run = { numRuns: 300 }

t.test('one piece of work at a time: never two copies at once, and reducers never write to the schedule they are given', async (t) => {
  // The simulation freezes every schedule: a reducer that wrote to its input would throw.
  fc.assert(
    fc.property(settings, history, (chosen, actions) => {
      play(new Simulation(chosen), actions, (sim) => {
        if (sim.schedule.running === undefined) return
        for (const now of [sim.now, sim.now + 1e9]) {
          const work = sim.next()
          if (work.kind !== 'wait' && work.kind !== 'end')
            throw new Error(`${work.kind} given at ${now} while a ${sim.schedule.running} runs`)
        }
      })
    }),
    run,
  )
  t.pass('held')
})

t.test('a failing upstream never gets more than the backoff allows: no round before its backoff, no stream reopened early', async (t) => {
  fc.assert(
    fc.property(settings, history, (chosen, actions) => {
      let notBefore = 0
      let startedCount = 0
      // Streams in a row that ended without an event, broke the contract or lived less than a poll.
      let fruitless = 0
      play(new Simulation(chosen), actions, (sim, done) => {
        const { schedule } = sim
        if (done.kind === 'failed' && schedule.phase !== 'failed' && schedule.phase !== 'stopped') {
          const least = leastDelay(schedule.failures, chosen.retryDelay, chosen.maxRetryDelay)
          notBefore = sim.now + least
          if (schedule.retryAt - sim.now > chosen.maxRetryDelay) throw new Error('a backoff past maxRetryDelay')
        }
        if (sim.started.length > startedCount) {
          startedCount = sim.started.length
          if (sim.now < notBefore) throw new Error(`work started at ${sim.now}, before the backoff's end at ${notBefore}`)
        }
        if (done.kind !== 'ended') return
        fruitless = done.bad || done.events === 0 || done.lived < chosen.pollInterval ? fruitless + 1 : 0
        const { delayMs } = streamRetry(schedule, sim.now)
        const least = fruitless === 0 ? chosen.retryDelay : leastDelay(fruitless, chosen.retryDelay, chosen.maxRetryDelay)
        if (delayMs < least || delayMs > chosen.maxRetryDelay)
          throw new Error(`stream reopened after ${delayMs} ms, after ${fruitless} fruitless streams in a row`)
      })
    }),
    run,
  )
  t.pass('held')
})

t.test("an upstream's Retry-After is a floor under the backoff, never below it, honoured up to an hour", async (t) => {
  const hour = 3_600_000
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 100 }),
      fc.option(fc.integer({ min: 0, max: 3 * hour }), { nil: undefined }),
      fc.integer({ min: 1, max: 1000 }),
      fc.integer({ min: 1000, max: 60_000 }),
      fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
      (failures, retryAfter, baseMs, maxMs, random) => {
        const delay = attemptDelay(failures, retryAfter, { baseMs, maxMs }, random)
        const floor = Math.max(leastDelay(failures, baseMs, maxMs), Math.min(retryAfter ?? 0, hour))
        if (delay < floor || delay > Math.max(maxMs, hour)) throw new Error(`${delay} ms outside ${floor}-${Math.max(maxMs, hour)}`)
      },
    ),
    run,
  )
  t.pass('held')
})

t.test('no announcement is lost: each goes to a step, or a later step reads the cut, or a later copy reads everything', async (t) => {
  // Announcements come in bursts here, as they do while a step or a copy runs.
  const burst = fc.array(announce, { minLength: 1, maxLength: 6 })
  const actions = fc
    .array(
      fc.oneof(
        action.map((one) => [one]),
        burst,
      ),
      { maxLength: 40 },
    )
    .map((groups) => groups.flat())
  fc.assert(
    fc.property(settings, actions, (chosen, actions) => {
      const pending = new Set<Announcement>()
      const sim = play(new Simulation(chosen), actions, (sim, done) => {
        if (done.kind === 'announce') pending.add(done.announcement)
        const last = sim.started.at(-1)
        if (last === undefined || last.at !== sim.now) return
        const { work } = last
        if (work.kind === 'copy' || (work.kind === 'step' && !work.announcedAll)) pending.clear()
        else if (work.kind === 'step') for (const announced of work.announced) pending.delete(announced)
      })
      // The ones still pending are still in the schedule, for the next step.
      for (const announced of pending) if (!sim.schedule.announced.includes(announced)) throw new Error('an announcement was lost')
    }),
    run,
  )
  t.pass('held')
})

t.test('a gap in a stream that gave events is always followed by a copy, unless ingest ends first', async (t) => {
  fc.assert(
    fc.property(settings, history, (chosen, actions) => {
      let gapAt: number | undefined
      // Whether the last stream that ended gave events.
      let gave = false
      const sim = play(new Simulation({ ...chosen, failFast: false }), actions, (sim, done) => {
        const copying = sim.schedule.phase === 'copying' || sim.schedule.phase === 'following'
        if (done.kind === 'ended' || done.kind === 'dropped') gave = done.events > 0
        if (done.kind === 'connected' && gave && copying) gapAt ??= sim.started.length
        if (sim.started.slice(gapAt).some((started) => started.work.kind === 'copy')) gapAt = undefined
      })
      if (gapAt === undefined || over(sim)) return
      if (sim.schedule.running !== undefined) sim.done()
      sim.drain()
      if (over(sim)) return
      if (!sim.started.slice(gapAt).some((started) => started.work.kind === 'copy')) throw new Error('the gap was never copied')
    }),
    run,
  )
  t.pass('held')
})

t.test('a step after a (re)connection or a change of upstream never takes its announcements as complete', async (t) => {
  fc.assert(
    fc.property(settings, history, (chosen, actions) => {
      let incomplete = false
      play(new Simulation(chosen), actions, (sim, done) => {
        if (done.kind === 'connected' || done.kind === 'switched') incomplete = true
        const last = sim.started.at(-1)
        if (done.kind !== 'start' || last === undefined || last.at !== sim.now || last.work.kind !== 'step') return
        if (incomplete && last.work.announcedAll) throw new Error('a complete step after a reconnection')
        incomplete = false
      })
    }),
    run,
  )
  t.pass('held')
})

t.test('no copy without a reason: the start, a failed round, a block too far, or a gap in a stream that gave events', async (t) => {
  fc.assert(
    fc.property(settings, history, (chosen, actions) => {
      let reason = true
      let gave = false
      let copies = 0
      play(new Simulation(chosen), actions, (sim, done) => {
        if (done.kind === 'ended' || done.kind === 'dropped') gave = done.events > 0
        if (done.kind === 'failed' || (done.kind === 'done' && done.outcome === 'far')) reason = true
        if (done.kind === 'connected' && gave) reason = true
        const started = sim.started.filter((one) => one.work.kind === 'copy').length
        if (started === copies) return
        copies = started
        if (!reason) throw new Error('a copy without a reason')
        reason = false
      })
    }),
    run,
  )
  t.pass('held')
})
