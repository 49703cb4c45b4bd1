import { StringDecoder } from 'node:string_decoder'

/** One server-sent event: its name (`message` when none was given) and its data lines joined by `\n`. */
export interface ServerSentEvent {
  readonly event: string
  readonly data: string
}

/**
 * A `text/event-stream` parser fed chunk by chunk (WHATWG rules: `\n`, `\r\n` or `\r` line ends,
 * comment lines, one optional space after the colon, several `data` lines per event). The real
 * node writes `event: BlockHeader` and Weft `event:BlockHeader`: both read the same.
 */
export class EventStreamParser {
  readonly #decoder = new StringDecoder('utf8')
  #buffered = ''
  #event = ''
  #data: string[] = []
  // A `\r` ended the last chunk: a `\n` starting the next one belongs to the same line end.
  #pendingReturn = false

  /** The events that `chunk` completes, in order. */
  push(chunk: Buffer | string): ServerSentEvent[] {
    let text = typeof chunk === 'string' ? chunk : this.#decoder.write(chunk)
    if (this.#pendingReturn && text.startsWith('\n')) text = text.slice(1)
    this.#pendingReturn = false
    this.#buffered += text
    const events: ServerSentEvent[] = []
    let start = 0
    for (;;) {
      const end = lineEnd(this.#buffered, start)
      if (end === -1) break
      const line = this.#buffered.slice(start, end)
      if (this.#buffered[end] === '\r') {
        if (end + 1 === this.#buffered.length) this.#pendingReturn = true
        start = this.#buffered[end + 1] === '\n' ? end + 2 : end + 1
      } else {
        start = end + 1
      }
      const event = this.#line(line)
      if (event !== undefined) events.push(event)
    }
    this.#buffered = this.#buffered.slice(start)
    return events
  }

  #line(line: string): ServerSentEvent | undefined {
    if (line === '') {
      const event = this.#data.length > 0 ? { event: this.#event || 'message', data: this.#data.join('\n') } : undefined
      this.#event = ''
      this.#data = []
      return event
    }
    if (line.startsWith(':')) return undefined
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'event') this.#event = value
    else if (field === 'data') this.#data.push(value)
    // `id` and `retry` mean nothing for these streams.
    return undefined
  }
}

function lineEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 10 || c === 13) return i
  }
  return -1
}
