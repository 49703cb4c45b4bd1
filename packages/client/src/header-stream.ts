import { chainPaths, isTransient, type OpenedStream, parseEventStream, readHeaderUpdate } from '@weft/api'
import type { Connection } from './connection.js'
import { InvalidOptionError } from './errors.js'
import { sleep } from './sleep.js'
import { bodyChunks, openStream } from './stream-body.js'
import type { HeaderStreamEvent, HeaderUpdatesOptions } from './types.js'

/** The event a Weft node sends first when it cannot resume after the id a client sent back. */
const RESUME_FROM_PAGE = 'ResumeFromPage'

/**
 * The header update stream with a `connected` item at every (re)connection. Reconnects when the
 * server ends the stream, the connection fails or goes silent, or the answer is a 5xx or 429
 * (waiting `retryDelay`, doubling up to `maxRetryDelay`); any other failure is thrown.
 *
 * Once the node has given an event id (Weft does), a reconnection sends the last one back
 * (`?since=`): the node sends what followed it, and the `connected` item says `resumed: true`
 * before the first event after the reconnection. When the node answers `ResumeFromPage` instead
 * (the id is older than its window, or from before its restart), the item says `resumed: false`
 * with the node's reason: events were missed, and the caller catches up with page queries. A node
 * that gives no ids (the real chainweb-node) is reconnected to as before: `resumed: false` at once.
 */
export async function* headerEvents(connection: Connection, options: HeaderUpdatesOptions = {}): AsyncGenerator<HeaderStreamEvent> {
  const { signal } = options
  const retryDelay = options.retryDelay ?? 500
  const maxRetryDelay = options.maxRetryDelay ?? 5000
  const idleTimeout = options.idleTimeout ?? 60_000
  // A zero or negative delay would retry in a hot loop against a node that is down.
  if (!(retryDelay > 0 && Number.isFinite(retryDelay))) throw new InvalidOptionError('retryDelay', 'a positive number', retryDelay)
  if (!(maxRetryDelay >= retryDelay && Number.isFinite(maxRetryDelay)))
    throw new InvalidOptionError('maxRetryDelay', `a number >= retryDelay (${retryDelay})`, maxRetryDelay)
  if (!(idleTimeout >= 0 && Number.isFinite(idleTimeout)))
    throw new InvalidOptionError('idleTimeout', 'a non-negative number (0: never)', idleTimeout)
  const { depth } = options
  if (depth !== undefined && !(Number.isSafeInteger(depth) && depth >= 0 && depth <= 1000))
    throw new InvalidOptionError('depth', 'an integer from 0 to 1000', depth)
  let delay = retryDelay
  let lastId = options.lastEventId
  while (!signal?.aborted) {
    let response: OpenedStream
    const since = lastId
    try {
      response = await openStream(connection, chainPaths.headerUpdates((await connection.chain()).base, since, depth), signal, idleTimeout)
    } catch (error) {
      if (signal?.aborted) return
      if (!isTransient(error)) throw error
      await sleep(delay, signal)
      delay = Math.min(delay * 2, maxRetryDelay)
      continue
    }
    delay = retryDelay
    const { profile } = await connection.target()
    const { checker } = await connection.readOptions()
    // Resuming: whether it worked is told by the first event (a node that lost the id says so first).
    let told = since === undefined
    if (told) yield { type: 'connected', resumed: false }
    for await (const event of parseEventStream(bodyChunks(response, idleTimeout))) {
      if (event.event === RESUME_FROM_PAGE && !told) {
        told = true
        lastId = event.id
        yield { type: 'connected', resumed: false, reason: resumeReason(event.data) }
        continue
      }
      if (event.event !== 'BlockHeader') continue
      if (!told) {
        told = true
        // A node that gives no ids (another node behind the same URL now) ignored the id sent.
        yield { type: 'connected', resumed: event.id !== undefined }
      }
      const update = readHeaderUpdate(event.data, profile, 'a header update event', checker)
      lastId = event.id
      yield event.id === undefined ? { type: 'update', update } : { type: 'update', update, id: event.id }
    }
    // The server ended the stream (restart, or this client fell behind): reconnect after a pause.
    await sleep(retryDelay, signal)
  }
}

// The `code` of a ResumeFromPage event's data (EVENT_ID_EXPIRED, EVENT_ID_UNKNOWN), or its text when it is not one.
function resumeReason(data: string): string {
  try {
    const code = (JSON.parse(data) as { code?: unknown }).code
    if (typeof code === 'string') return code
  } catch {}
  return data
}
