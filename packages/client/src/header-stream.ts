import { chainPaths, isTransient, type OpenedStream, parseEventStream, readHeaderUpdate, WeftNetworkError } from '@weft/api'
import type { Connection } from './connection.js'
import { InvalidOptionError } from './errors.js'
import { sleep } from './sleep.js'
import type { HeaderStreamEvent, HeaderUpdatesOptions } from './types.js'

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
  // A zero or negative delay would retry in a hot loop against a node that is down.
  if (!(retryDelay > 0 && Number.isFinite(retryDelay))) throw new InvalidOptionError('retryDelay', 'a positive number', retryDelay)
  if (!(maxRetryDelay >= retryDelay && Number.isFinite(maxRetryDelay)))
    throw new InvalidOptionError('maxRetryDelay', `a number >= retryDelay (${retryDelay})`, maxRetryDelay)
  if (!(idleTimeout >= 0 && Number.isFinite(idleTimeout)))
    throw new InvalidOptionError('idleTimeout', 'a non-negative number (0: never)', idleTimeout)
  let delay = retryDelay
  while (!signal?.aborted) {
    let response: OpenedStream
    try {
      response = await connect(connection, signal, idleTimeout)
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
    yield { type: 'connected' }
    for await (const event of parseEventStream(bodyChunks(response, idleTimeout))) {
      if (event.event !== 'BlockHeader') continue
      yield { type: 'update', update: readHeaderUpdate(event.data, profile, 'a header update event', checker) }
    }
    // The server ended the stream (restart, or this client fell behind): reconnect after a pause.
    await sleep(retryDelay, signal)
  }
}

// A peer that accepts the connection and never sends the response headers is as silent as a dead
// stream: past `idleTimeout` the attempt fails as a network error, which is retried. The timer stops
// once the headers arrive (an AbortSignal.timeout would also cut the body it streams later).
async function connect(connection: Connection, signal: AbortSignal | undefined, idleTimeout: number): Promise<OpenedStream> {
  const url = chainPaths.headerUpdates((await connection.chain()).base)
  const silent = new AbortController()
  const timer = idleTimeout > 0 ? setTimeout(() => silent.abort(), idleTimeout) : undefined
  try {
    return await connection.transport.open({ url, signal: signal ? AbortSignal.any([signal, silent.signal]) : silent.signal })
  } catch (error) {
    if (silent.signal.aborted && !signal?.aborted)
      throw new WeftNetworkError(url, { cause: new Error(`no response headers within ${idleTimeout} ms`) })
    throw error
  } finally {
    clearTimeout(timer)
  }
}

// A connection that breaks mid-stream, or stays silent past `idleTimeout` (a dead peer sends no FIN),
// ends the stream like a clean end does: the caller reconnects.
async function* bodyChunks(response: OpenedStream, idleTimeout: number): AsyncGenerator<Uint8Array> {
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
