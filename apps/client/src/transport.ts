import { WeftHttpError, WeftNetworkError } from './errors.js'

/** What `send` may add to a request: a JSON body, a signal that cancels it. */
export interface RequestInitOptions {
  body?: unknown
  signal?: AbortSignal | undefined
}

/**
 * A 2xx answer. The body is read through `json`, `text` or `bytes`, which turn a connection that
 * breaks while the body arrives into WeftNetworkError, as a request that got no answer is.
 */
export interface Answer {
  /** The response itself: status, headers, and the body stream for readers that stream it. */
  readonly response: Response
  json(): Promise<unknown>
  text(): Promise<string>
  bytes(): Promise<Uint8Array>
}

/** Sends HTTP requests to one node; answers outside 2xx and missing answers become client errors. */
export interface Transport {
  /** The node's root URL, without a trailing slash. */
  readonly root: string
  /** Sends one request; resolves to a 2xx answer, else throws WeftHttpError or WeftNetworkError. */
  send(method: string, url: string, init?: RequestInitOptions): Promise<Answer>
}

/** How the transport reaches the node. */
export interface TransportOptions {
  url: string
  fetch?: typeof globalThis.fetch
  headers?: Readonly<Record<string, string>>
}

/** Creates the transport to the node at `options.url`. */
export function createTransport(options: TransportOptions): Transport {
  const fetchImpl = options.fetch ?? globalThis.fetch
  return {
    root: options.url.replace(/\/+$/, ''),

    async send(method, url, init = {}) {
      const headers: Record<string, string> = { ...options.headers }
      const request: RequestInit = { method, headers }
      if (init.body !== undefined) {
        headers['content-type'] = 'application/json'
        request.body = JSON.stringify(init.body)
      }
      if (init.signal) request.signal = init.signal
      let response: Response
      try {
        response = await fetchImpl(url, request)
      } catch (error) {
        throw networkError(url, error, init.signal)
      }
      const read = readerOf(url, init.signal)
      if (!response.ok) throw new WeftHttpError(response.status, await readErrorBody(response, read), url, method)
      return {
        response,
        // A body that is not JSON arrived whole: a SyntaxError is not a network failure, so it is parsed outside.
        json: async () => JSON.parse(await read(() => response.text())) as unknown,
        text: () => read(() => response.text()),
        bytes: async () => new Uint8Array(await read(() => response.arrayBuffer())),
      }
    },
  }
}

// A failure to receive (a reset while the headers or the body arrive) is a network error; an abort is
// the caller's own doing and passes through as is.
function networkError(url: string, error: unknown, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted) return error
  return new WeftNetworkError(url, { cause: error })
}

function readerOf(url: string, signal: AbortSignal | undefined) {
  return async <T>(reading: () => Promise<T>): Promise<T> => {
    try {
      return await reading()
    } catch (error) {
      throw networkError(url, error, signal)
    }
  }
}

// An error body is JSON when it says so and parses, else kept as text.
async function readErrorBody(response: Response, read: ReturnType<typeof readerOf>): Promise<unknown> {
  const text = await read(() => response.text())
  if (/json/i.test(response.headers.get('content-type') ?? '')) {
    try {
      return JSON.parse(text) as unknown
    } catch {
      return text
    }
  }
  return text
}
