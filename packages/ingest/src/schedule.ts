import { backoffDelay } from './backoff.js'
import type { IngestPhase } from './status.js'
import type { Announcement } from './update-stream.js'

/** The settings the schedule decides by (times in ms). */
export interface ScheduleSettings {
  /** Keep following after the first copy; false: end once it is done. */
  readonly follow: boolean
  /** A failed round ends ingest instead of being tried again. */
  readonly failFast: boolean
  readonly pollInterval: number
  readonly retryDelay: number
  readonly maxRetryDelay: number
}

/** The work ingest does, one piece at a time. */
export type WorkKind = 'copy' | 'step' | 'sweep'

/** What the update stream's side of the schedule knows. */
export interface StreamSchedule {
  /** A stream is open now. */
  readonly open: boolean
  /** When the open stream last sent a byte; 0 before any. */
  readonly lastByteAt: number
  /** Streams in a row that ended without an event, broke the contract or were short-lived. */
  readonly fruitless: number
  /** The last stream that ended gave an event (so announcements that were relied on may be lost). */
  readonly gaveEvents: boolean
  /** When the stream may be opened again, after the last one ended. */
  readonly reopenAt: number
}

/** Everything ingest's scheduling decides on, as plain data: see `reduce` and `nextWork`. */
export interface Schedule {
  readonly settings: ScheduleSettings
  readonly phase: IngestPhase
  /** The work in progress: only one runs at a time. */
  readonly running: WorkKind | undefined
  /** A copy by pages is due: at the start, after a failed round, after a block too far for branch queries, after a gap in a stream that gave events. */
  readonly copyDue: boolean
  /** Announcements since the last step began, at most `maxAnnounced`. */
  readonly announced: readonly Announcement[]
  /** The next step reads the cut on its own account: the announcements may not name every block (silent or broken stream, reconnection, announcements dropped, another upstream). */
  readonly cutDue: boolean
  /** A copy or a sweeping step wrote blocks since every chain's tip was last swept. */
  readonly sweepDue: boolean
  /** The upstream was quiet with a sweep due: every chain's tip is swept next. */
  readonly tipSweepDue: boolean
  /** When a block was last written or announced. */
  readonly lastActivityAt: number
  /** Failed rounds in a row; no work starts before `retryAt`. */
  readonly failures: number
  readonly retryAt: number
  readonly stream: StreamSchedule
}

/** What happens to ingest, from its four sources (the update stream, the poll timer, the work's end, its failures); `at` is when (ms). */
export type ScheduleEvent =
  /** The stream announced a block. */
  | { readonly type: 'announce'; readonly at: number; readonly announcement: Announcement }
  /** The stream (re)connected: what was announced while it was down is unknown. */
  | { readonly type: 'connected'; readonly at: number }
  /** The open stream sent a byte. */
  | { readonly type: 'heard'; readonly at: number }
  /** The stream ended by itself: how many events it gave, whether it broke the contract, how long it was open; `random` in [0, 1) for the jitter. */
  | {
      readonly type: 'streamEnded'
      readonly at: number
      readonly events: number
      readonly bad: boolean
      readonly lived: number
      readonly random: number
    }
  /** Ingest closed the stream to open it on the upstream in use. */
  | { readonly type: 'streamDropped'; readonly at: number; readonly events: number }
  /** The upstream does not serve an update stream: the cut polls follow it meanwhile. */
  | { readonly type: 'streamRefused'; readonly at: number }
  /** The poll timer, every `pollInterval`. */
  | { readonly type: 'tick'; readonly at: number }
  /** The upstream in use changed to one ahead of it. */
  | { readonly type: 'switched'; readonly at: number }
  /** The work `nextWork` gave began (applied at once, before any other event). */
  | { readonly type: 'started'; readonly at: number; readonly work: WorkKind }
  /** The running work ended: blocks it wrote; a step's outcome ('far': a block too far above the store; 'swept': it read pages for orphans). */
  | { readonly type: 'done'; readonly at: number; readonly wrote: number; readonly outcome?: 'far' | 'swept' | 'done' | undefined }
  /** The running work failed; `fatal`: the store failed (closed, corrupt). */
  | { readonly type: 'failed'; readonly at: number; readonly fatal: boolean; readonly random: number }
  /** `stop()`, or the end of the loop. */
  | { readonly type: 'stopped'; readonly at: number }

/** The next piece of work: a copy, a follow step on these announcements, a sweep of the tips, a wait until `until` (or the next event), or the end. */
export type Work =
  | { readonly kind: 'copy' }
  | { readonly kind: 'step'; readonly announced: readonly Announcement[]; readonly announcedAll: boolean }
  | { readonly kind: 'sweep' }
  | { readonly kind: 'wait'; readonly until: number }
  | { readonly kind: 'end' }

/** Announcements kept while a step runs; past this many they are dropped for one read of the cut. */
export const maxAnnounced = 10_000
/** Poll intervals without a new block or an announcement after which the upstream is quiet (then the tips are swept once). */
export const quietPolls = 3

/** The schedule of an ingest about to start: a copy is due. */
export function initialSchedule(settings: ScheduleSettings): Schedule {
  return {
    settings,
    phase: 'starting',
    running: undefined,
    copyDue: true,
    announced: [],
    cutDue: false,
    sweepDue: false,
    tipSweepDue: false,
    lastActivityAt: 0,
    failures: 0,
    retryAt: 0,
    stream: { open: false, lastByteAt: 0, fruitless: 0, gaveEvents: false, reopenAt: 0 },
  }
}

/**
 * What ingest does next: nothing while work runs or a failed round's backoff lasts; then a copy when
 * one is due, a step when blocks were announced, a sweep of the tips when the upstream went quiet, a
 * step when the cut must be read; else a wait for the next event.
 */
export function nextWork(schedule: Schedule, now: number): Work {
  if (schedule.phase === 'stopped' || schedule.phase === 'failed') return { kind: 'end' }
  if (schedule.running !== undefined) return { kind: 'wait', until: Number.POSITIVE_INFINITY }
  if (now < schedule.retryAt) return { kind: 'wait', until: schedule.retryAt }
  if (schedule.copyDue) return { kind: 'copy' }
  // Before a step that only reads the cut: while the stream is silent, every poll asks for one, and
  // steps that each outlast a poll would put the sweep off for good.
  if (schedule.tipSweepDue && schedule.announced.length === 0) return { kind: 'sweep' }
  if (schedule.announced.length > 0 || schedule.cutDue) {
    // Announcements name every block only when the cut needed no read of its own since the last step.
    return { kind: 'step', announced: schedule.announced, announcedAll: !schedule.cutDue }
  }
  return { kind: 'wait', until: Number.POSITIVE_INFINITY }
}

/** The schedule after `event`; `schedule` is left as it was. */
export function reduce(schedule: Schedule, event: ScheduleEvent): Schedule {
  switch (event.type) {
    case 'announce':
      return announce(schedule, event.announcement, event.at)
    case 'connected':
      return connected(schedule, event.at)
    case 'heard':
      return { ...schedule, stream: { ...schedule.stream, lastByteAt: event.at } }
    case 'streamEnded':
      return streamEnded(schedule, event)
    case 'streamDropped':
      return { ...schedule, stream: { ...schedule.stream, open: false, gaveEvents: event.events > 0, reopenAt: event.at } }
    case 'streamRefused':
      return { ...schedule, stream: { ...schedule.stream, open: false, reopenAt: event.at + schedule.settings.maxRetryDelay } }
    case 'tick':
      return tick(schedule, event.at)
    case 'switched':
      return { ...schedule, cutDue: true }
    case 'started':
      return started(schedule, event.work)
    case 'done':
      return done(schedule, event)
    case 'failed':
      return failed(schedule, event)
    case 'stopped':
      return { ...schedule, phase: schedule.phase === 'failed' ? 'failed' : 'stopped', running: undefined }
  }
}

/** How long the stream waits before it is opened again (ms from `now`), and the fruitless streams in a row that decided it. */
export function streamRetry(schedule: Schedule, now: number): { delayMs: number; attempt: number } {
  return { delayMs: Math.max(0, schedule.stream.reopenAt - now), attempt: schedule.stream.fruitless }
}

function announce(schedule: Schedule, announcement: Announcement, at: number): Schedule {
  if (schedule.announced.length >= maxAnnounced) return { ...schedule, announced: [], cutDue: true, lastActivityAt: at }
  return { ...schedule, announced: [...schedule.announced, announcement], lastActivityAt: at }
}

// What was announced while the stream was down is unknown. After a stream that gave events, copy
// again from a little below the store's blocks; during a copy, once it ends, since it may have read
// some chains before the gap. After one that gave none, the steps already read the cut and swept
// (nothing was relied on that could be missed): the next step does so again. A copy per connection
// would cost an upstream whose stream answers and ends at once a copy each time.
function connected(schedule: Schedule, at: number): Schedule {
  const stream = { ...schedule.stream, open: true, lastByteAt: at }
  const copying = schedule.phase === 'following' || schedule.phase === 'copying'
  if (schedule.stream.gaveEvents && copying) return { ...schedule, stream, copyDue: true }
  return { ...schedule, stream, cutDue: true }
}

// `retryDelay` after a stream that gave events for a while; else a backoff that grows with such
// streams in a row, so that one that ends at once (with an event or without) is not opened again,
// and copied from again, every `retryDelay`.
function streamEnded(schedule: Schedule, event: Extract<ScheduleEvent, { type: 'streamEnded' }>): Schedule {
  const { retryDelay, maxRetryDelay, pollInterval } = schedule.settings
  const fruitless = event.bad || event.events === 0 || event.lived < pollInterval ? schedule.stream.fruitless + 1 : 0
  const delay = fruitless === 0 ? retryDelay : backoffDelay(fruitless, { baseMs: retryDelay, maxMs: maxRetryDelay }, event.random)
  return {
    ...schedule,
    stream: { ...schedule.stream, open: false, fruitless, gaveEvents: event.events > 0, reopenAt: event.at + delay },
  }
}

// The poll, while following: the cut is read when the stream is silent or down, and every chain's
// tip is swept once the upstream has been quiet for `quietPolls` polls with a sweep due.
function tick(schedule: Schedule, at: number): Schedule {
  if (schedule.phase !== 'following') return schedule
  const { pollInterval } = schedule.settings
  const silent = !schedule.stream.open || at - schedule.stream.lastByteAt >= pollInterval
  const quiet = schedule.sweepDue && at - schedule.lastActivityAt >= quietPolls * pollInterval
  if (!silent && !quiet) return schedule
  return { ...schedule, cutDue: schedule.cutDue || silent, tipSweepDue: schedule.tipSweepDue || quiet }
}

// The work takes what made it due: announcements and events that come while it runs are the next one's.
function started(schedule: Schedule, work: WorkKind): Schedule {
  switch (work) {
    case 'copy':
      return { ...schedule, running: 'copy', copyDue: false, phase: 'copying' }
    case 'step':
      return { ...schedule, running: 'step', announced: [], cutDue: false }
    case 'sweep':
      return { ...schedule, running: 'sweep', tipSweepDue: false, sweepDue: false }
  }
}

function done(schedule: Schedule, event: Extract<ScheduleEvent, { type: 'done' }>): Schedule {
  const base = {
    ...schedule,
    running: undefined,
    failures: 0,
    lastActivityAt: event.wrote > 0 ? event.at : schedule.lastActivityAt,
  }
  switch (schedule.running) {
    case 'copy':
      // A copy may leave orphans the upstream wrote after their pages were read: the tips are swept once it is quiet.
      return { ...base, phase: schedule.settings.follow ? 'following' : 'stopped', sweepDue: true, lastActivityAt: event.at }
    case 'step':
      if (event.outcome === 'far') return { ...base, copyDue: true }
      return event.outcome === 'swept' ? { ...base, sweepDue: true } : base
    default:
      return base
  }
}

// A failed round: a copy is due after a backoff that grows with failed rounds in a row, unless the
// failure ends ingest (the store failed, or `failFast`).
function failed(schedule: Schedule, event: Extract<ScheduleEvent, { type: 'failed' }>): Schedule {
  const { retryDelay, maxRetryDelay, failFast } = schedule.settings
  const failures = schedule.failures + 1
  const delay = backoffDelay(failures, { baseMs: retryDelay, maxMs: maxRetryDelay }, event.random)
  return {
    ...schedule,
    phase: event.fatal || failFast ? 'failed' : schedule.phase,
    running: undefined,
    copyDue: true,
    failures,
    retryAt: event.at + delay,
  }
}
