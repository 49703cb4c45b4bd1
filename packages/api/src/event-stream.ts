import { StringDecoder } from 'node:string_decoder'
import { InvalidResponseError } from './errors.js'

/**
 * One server-sent event: its name (`message` when none was given), its data lines joined by `\n`,
 * and the stream's last event id when one was given (by this event or an earlier one, as the WHATWG
 * rules keep it): what a client sends back as `Last-Event-ID` to resume.
 */
export interface ServerSentEvent {
  readonly event: string
  readonly data: string
  readonly id?: string
}

/** Bounds of a parser. */
export interface EventStreamParserOptions {
  /** The longest line, and the longest data of one event, in characters (default 1 MiB). */
  readonly maxEventChars?: number
}

// A header update event is 1-2 KB (block update events, with payloads, stay well below too): a line
// or an event far past that is a node that never ends it, not a block.
const defaultMaxEventChars = 1024 * 1024

/**
 * A `text/event-stream` parser fed chunk by chunk (WHATWG rules: `\n`, `\r\n` or `\r` line ends,
 * comment lines, one optional space after the colon, several `data` lines per event). The real
 * node writes `event: BlockHeader` and Weft `event:BlockHeader`: both read the same. Each character
 * is scanned once, however a line is split; a line or an event's data past `maxEventChars` throws
 * `InvalidResponseError`.
 */
export class EventStreamParser {
  readonly #decoder = new StringDecoder('utf8')
  readonly #maxChars: number
  // The pieces of a line not ended yet: joined once its end comes, so that a long line costs its length.
  #partial: string[] = []
  #partialChars = 0
  #event = ''
  #lastId: string | undefined
  #data: string[] = []
  #dataChars = 0
  // A `\r` ended the last chunk: a `\n` starting the next one belongs to the same line end.
  #pendingReturn = false

  constructor(options: EventStreamParserOptions = {}) {
    this.#maxChars = options.maxEventChars ?? defaultMaxEventChars
  }

  /** The events that `chunk` completes, in order. */
  push(chunk: Uint8Array | string): ServerSentEvent[] {
    let text = typeof chunk === 'string' ? chunk : this.#decoder.write(chunk)
    if (this.#pendingReturn && text.startsWith('\n')) text = text.slice(1)
    this.#pendingReturn = false
    const events: ServerSentEvent[] = []
    let start = 0
    for (;;) {
      const end = lineEnd(text, start)
      if (end === -1) break
      const line = this.#takeLine(text.slice(start, end))
      if (text[end] === '\r') {
        if (end + 1 === text.length) this.#pendingReturn = true
        start = text[end + 1] === '\n' ? end + 2 : end + 1
      } else {
        start = end + 1
      }
      const event = this.#line(line)
      if (event !== undefined) events.push(event)
    }
    if (start < text.length) this.#keep(text.slice(start))
    return events
  }

  // The line whose last piece is `tail`.
  #takeLine(tail: string): string {
    if (this.#partial.length === 0) return tail
    const line = this.#partial.join('') + tail
    this.#partial = []
    this.#partialChars = 0
    return line
  }

  #keep(piece: string): void {
    this.#partialChars += piece.length
    if (this.#partialChars > this.#maxChars) this.#tooLong('a line')
    this.#partial.push(piece)
  }

  #line(line: string): ServerSentEvent | undefined {
    if (line === '') {
      const event = this.#data.length > 0 ? this.#dispatch() : undefined
      this.#event = ''
      this.#data = []
      this.#dataChars = 0
      return event
    }
    if (line.startsWith(':')) return undefined
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'event') this.#event = value
    else if (field === 'data') this.#addData(value)
    // An id with a NUL is ignored (WHATWG); `retry` means nothing for these streams.
    else if (field === 'id' && !value.includes('\0')) this.#lastId = value
    return undefined
  }

  #dispatch(): ServerSentEvent {
    const event = this.#event || 'message'
    const data = this.#data.join('\n')
    return this.#lastId === undefined ? { event, data } : { event, data, id: this.#lastId }
  }

  #addData(value: string): void {
    this.#dataChars += value.length + 1
    if (this.#dataChars > this.#maxChars) this.#tooLong("an event's data")
    this.#data.push(value)
  }

  #tooLong(what: string): never {
    throw new InvalidResponseError(`server-sent events of at most ${this.#maxChars} characters`, `${what} longer than that`)
  }
}

/** The events of a `text/event-stream` body arriving as `chunks` (bytes or text), with the parser's bound. */
export async function* parseEventStream(
  chunks: AsyncIterable<Uint8Array | string>,
  options: EventStreamParserOptions = {},
): AsyncGenerator<ServerSentEvent> {
  const parser = new EventStreamParser(options)
  for await (const chunk of chunks) yield* parser.push(chunk)
}

function lineEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 10 || c === 13) return i
  }
  return -1
}
