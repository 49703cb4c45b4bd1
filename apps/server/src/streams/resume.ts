import type { ChainStore } from '@weft/store'
import type { ProfileRules } from '../profile/profiles.js'
import type { Announcement, AnnouncementLog } from './announcement-log.js'
import { blockEventData, headerEventData } from './event-data.js'
import { eventFrame } from './event-frames.js'

/** Name of every update event. */
export const EVENT_NAME = 'BlockHeader'

/** Name of the event that tells a client its id cannot be resumed from: it must catch up with page queries. */
export const RESUME_FROM_PAGE = 'ResumeFromPage'

/** What a replay is made from. */
export interface ReplaySource {
  readonly log: AnnouncementLog
  readonly store: ChainStore
  readonly rules: ProfileRules
}

// Payload reads of a /block/updates replay running ahead of the frame written, as in the live queue.
const READS_AHEAD = 32
// A client's id is quoted back in the answer; a longer one is cut.
const QUOTED_ID_CHARS = 128

/**
 * The frames a client that last saw event `lastId` is sent before the live ones: the announcements
 * after it that the stream already published, in order; or, when the id is not one of this log's
 * window, one `ResumeFromPage` event whose id is the stream's current position.
 */
export function replayFor(kind: 'header' | 'block', lastId: string, source: ReplaySource): AsyncIterable<Buffer> | Iterable<Buffer> {
  const { log } = source
  // The header stream publishes as it announces; the block stream once the payload is read.
  const upTo = kind === 'header' ? log.head : log.blockPublished
  const point = log.pointOf(lastId)
  // An id past what this stream published is another stream's (only /block/updates lags).
  if (point.kind !== 'resume' || point.seq > upTo) return [resumeFromPageFrame(log, lastId, point.kind === 'expired', upTo)]
  const entries = log.between(point.seq, upTo)
  if (kind === 'header') return entries.map((entry) => eventFrame(EVENT_NAME, headerEventData(entry.parts), log.idOf(entry.seq)))
  return blockFrames(entries, source)
}

/** The `ResumeFromPage` event: why the id cannot be resumed from, and (as its id) where the stream now continues. */
export function resumeFromPageFrame(log: AnnouncementLog, lastId: string, expired: boolean, upTo: number): Buffer {
  const quoted = lastId.length > QUOTED_ID_CHARS ? `${lastId.slice(0, QUOTED_ID_CHARS)}...` : lastId
  const detail = expired
    ? `the events after ${quoted} are no longer kept (this node keeps the events after ${log.idOf(log.oldest - 1)})`
    : `${quoted} is not an event id of this node since its last start (ids begin <epoch>.<sequence>; this node's epoch is ${log.epoch})`
  const data = {
    code: expired ? 'EVENT_ID_EXPIRED' : 'EVENT_ID_UNKNOWN',
    detail: `${detail}: read what you missed with page queries; this stream goes on after this event`,
    lastEventId: quoted,
  }
  return eventFrame(RESUME_FROM_PAGE, [JSON.stringify(data)], log.idOf(upTo))
}

type Read = { ok: true; payload: Buffer | undefined } | { ok: false; error: unknown }

// The /block/updates frames of `entries`, their payloads read up to READS_AHEAD ahead. A failed read
// ends the replay (the client is cut and resumes again); a payload the store lacks is passed over,
// as the live queue does.
async function* blockFrames(entries: readonly Announcement[], source: ReplaySource): AsyncGenerator<Buffer> {
  const { log, store, rules } = source
  const reads: Array<Promise<Read>> = []
  let next = 0
  for (const entry of entries) {
    for (; next < entries.length && reads.length < READS_AHEAD; next++) {
      const read = store.getPayloadJson((entries[next] as Announcement).payloadHash)
      reads.push(
        read.then(
          (payload) => ({ ok: true as const, payload }),
          (error: unknown) => ({ ok: false as const, error }),
        ),
      )
    }
    const read = (await reads.shift()) as Read
    if (!read.ok) throw read.error
    if (read.payload !== undefined) yield eventFrame(EVENT_NAME, blockEventData(rules, entry.parts, read.payload), log.idOf(entry.seq))
  }
}
