import { type OpenedStream, WeftNetworkError } from '@weft/api'
import type { Connection } from './connection.js'

// The event streams' transport rules, shared by the header stream and the filtered streams.

/**
 * Opens the event stream at `url`. A peer that accepts the connection and never sends the response
 * headers is as silent as a dead stream: past `idleTimeout` (0: never) the attempt fails as a
 * network error, which the caller retries. The timer stops once the headers arrive (an
 * AbortSignal.timeout would also cut the body it streams later).
 */
export async function openStream(
  connection: Connection,
  url: string,
  signal: AbortSignal | undefined,
  idleTimeout: number,
): Promise<OpenedStream> {
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

/**
 * The stream's bytes. A connection that breaks mid-stream, or stays silent past `idleTimeout` (a
 * dead peer sends no FIN; a Weft node sends a keep-alive comment while idle), ends the stream as a
 * clean end does: the caller reconnects.
 */
export async function* bodyChunks(response: OpenedStream, idleTimeout: number): AsyncGenerator<Uint8Array> {
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
