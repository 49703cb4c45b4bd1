import { ChainwebHeaderUpdate, HeaderUpdate } from '@weft/types'
import type { Connection } from './connection.js'
import { parseEventStream } from './event-stream.js'
import { isTransient, sleep } from './retry.js'
import type { AnyHeaderUpdate, HeaderStreamEvent, HeaderUpdatesOptions } from './types.js'

/**
 * The header update stream with a `connected` item at every (re)connection. Reconnects when the
 * server ends the stream, the connection fails or goes silent, or the answer is a 5xx or 429
 * (waiting `retryDelay`, doubling up to `maxRetryDelay`); any other failure is thrown.
 */
export async function* headerEvents(connection: Connection, options: HeaderUpdatesOptions = {}): AsyncGenerator<HeaderStreamEvent> {
  const { signal } = options
  const retryDelay = options.retryDelay ?? 500
  const maxRetryDelay = options.maxRetryDelay ?? 5000
  const idleTimeout = options.idleTimeout ?? 60_000
  let delay = retryDelay
  while (!signal?.aborted) {
    let response: Response
    try {
      response = await connection.send('GET', `${await connection.base()}/header/updates`, { signal })
    } catch (error) {
      if (signal?.aborted) return
      if (!isTransient(error)) throw error
      await sleep(delay, signal)
      delay = Math.min(delay * 2, maxRetryDelay)
      continue
    }
    delay = retryDelay
    const schema = (await connection.target()).profile === 'chainweb' ? ChainwebHeaderUpdate : HeaderUpdate
    yield { type: 'connected' }
    for await (const event of parseEventStream(bodyChunks(response, idleTimeout))) {
      if (event.event !== 'BlockHeader') continue
      yield { type: 'update', update: connection.checkExact<AnyHeaderUpdate>(schema, event.data, 'a header update event') }
    }
    // The server ended the stream (restart, or this client fell behind): reconnect after a pause.
    await sleep(retryDelay, signal)
  }
}

// A connection that breaks mid-stream, or stays silent past `idleTimeout` (a dead peer sends no FIN),
// ends the stream like a clean end does: the caller reconnects.
async function* bodyChunks(response: Response, idleTimeout: number): AsyncGenerator<Uint8Array> {
  if (!response.body) return
  const reader = response.body.getReader()
  let timer: NodeJS.Timeout | undefined
  try {
    for (;;) {
      const idle = new Promise<'idle'>((resolve) => {
        if (idleTimeout > 0) timer = setTimeout(() => resolve('idle'), idleTimeout)
      })
      const result = await Promise.race([reader.read(), idle])
      clearTimeout(timer)
      if (result === 'idle' || result.done) return
      yield result.value
    }
  } catch {
    return
  } finally {
    clearTimeout(timer)
    reader.cancel().catch(() => undefined)
  }
}
