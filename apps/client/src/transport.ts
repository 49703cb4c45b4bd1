import { WeftHttpError, WeftNetworkError } from './errors.js'

/** What `send` may add to a request: a JSON body, a signal that cancels it. */
export interface RequestInitOptions {
  body?: unknown
  signal?: AbortSignal | undefined
}

/** Sends HTTP requests to one node; answers outside 2xx and missing answers become client errors. */
export interface Transport {
  /** The node's root URL, without a trailing slash. */
  readonly root: string
  /** Sends one request; resolves to a 2xx response, else throws WeftHttpError or WeftNetworkError. */
  send(method: string, url: string, init?: RequestInitOptions): Promise<Response>
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
        // An abort is the caller's own doing: it passes through as is.
        if (init.signal?.aborted) throw error
        throw new WeftNetworkError(url, { cause: error })
      }
      if (!response.ok) throw new WeftHttpError(response.status, await readBody(response), url, method)
      return response
    },
  }
}

// An error body is JSON when it says so and parses, else kept as text.
async function readBody(response: Response): Promise<unknown> {
  const text = await response.text()
  if (/json/i.test(response.headers.get('content-type') ?? '')) {
    try {
      return JSON.parse(text) as unknown
    } catch {
      return text
    }
  }
  return text
}
