import { WeftNetworkError } from './errors.js'
import type { HeaderReader } from './profiles.js'
import { httpErrorOf, type Send, type WireRequest } from './transport.js'

/** How the fetch transport reaches nodes: a `fetch` (default the global one) and headers for every request. */
export interface FetchTransportOptions {
  readonly fetch?: typeof globalThis.fetch | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
}

/** A 2xx answer whose body is still arriving: for event streams. */
export interface OpenedStream {
  readonly status: number
  readonly header: HeaderReader
  /** The body as it arrives; null when the answer has none. */
  readonly body: ReadableStream<Uint8Array> | null
}

/** `Send` over `fetch`, and `open` for answers read as they arrive (event streams). */
export interface FetchTransport {
  readonly send: Send
  /** Sends a request and resolves once a 2xx answer's headers came, its body unread; errors as `send`'s. */
  open(request: WireRequest): Promise<OpenedStream>
}

/**
 * The transport of `@weft/client` (and of the cluster check): `fetch`, with no agent of its own.
 * No answer, or a body that breaks off, is `WeftNetworkError`; a status outside 2xx `WeftHttpError`;
 * a request the caller's signal aborted rejects with the abort's own error. `accept` is sent only
 * when a request names one.
 */
export function createFetchTransport(options: FetchTransportOptions = {}): FetchTransport {
  const fetchImpl = options.fetch ?? globalThis.fetch

  async function start(request: WireRequest): Promise<Response> {
    const headers: Record<string, string> = { ...options.headers }
    if (request.accept !== undefined) headers.accept = request.accept
    const init: RequestInit = { method: request.method ?? 'GET', headers }
    if (request.body !== undefined) {
      headers['content-type'] = 'application/json'
      init.body = request.body
    }
    if (request.signal !== undefined) init.signal = request.signal
    const response = await reading(request, () => fetchImpl(request.url, init))
    if (!response.ok) {
      const body = await reading(request, () => response.arrayBuffer())
      throw httpErrorOf(init.method as string, request.url, response.status, headerReader(response), new Uint8Array(body))
    }
    return response
  }

  return {
    async send(request) {
      const response = await start(request)
      const body = new Uint8Array(await reading(request, () => response.arrayBuffer()))
      return { status: response.status, header: headerReader(response), body }
    },
    async open(request) {
      const response = await start(request)
      return { status: response.status, header: headerReader(response), body: response.body }
    },
  }
}

function headerReader(response: Response): HeaderReader {
  return (name) => response.headers.get(name) ?? undefined
}

// A failure to receive (a reset while the headers or the body arrive) is a network error; an abort is
// the caller's own doing and passes through as it is.
async function reading<T>(request: WireRequest, receive: () => Promise<T>): Promise<T> {
  try {
    return await receive()
  } catch (error) {
    if (request.signal?.aborted) throw error
    throw new WeftNetworkError(request.url, { cause: error })
  }
}
