/** One server-sent event: its name (`message` when the stream gave none) and its data lines joined by `\n`. */
export interface ServerSentEvent {
  event: string
  data: string
}

/**
 * Parses a `text/event-stream` body (WHATWG rules: `\n`, `\r\n` or `\r` line ends, comments,
 * one optional space after the colon, several `data` lines) into events, as chunks arrive.
 */
export async function* parseEventStream(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder()
  let buffered = ''
  let eventName = ''
  let dataLines: string[] = []
  let pendingCarriageReturn = false
  for await (const chunk of chunks) {
    let text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })
    // A `\r\n` split across chunks: the `\r` already ended the line, so drop the `\n`.
    if (pendingCarriageReturn && text.startsWith('\n')) text = text.slice(1)
    pendingCarriageReturn = false
    buffered += text
    let start = 0
    for (;;) {
      const end = nextLineEnd(buffered, start)
      if (end === -1) break
      const line = buffered.slice(start, end)
      if (buffered[end] === '\r') {
        if (end + 1 === buffered.length) pendingCarriageReturn = true
        start = buffered[end + 1] === '\n' ? end + 2 : end + 1
      } else {
        start = end + 1
      }
      if (line === '') {
        if (dataLines.length > 0) yield { event: eventName || 'message', data: dataLines.join('\n') }
        eventName = ''
        dataLines = []
        continue
      }
      if (line.startsWith(':')) continue
      const colon = line.indexOf(':')
      const field = colon === -1 ? line : line.slice(0, colon)
      let value = colon === -1 ? '' : line.slice(colon + 1)
      if (value.startsWith(' ')) value = value.slice(1)
      if (field === 'event') eventName = value
      else if (field === 'data') dataLines.push(value)
      // `id` and `retry` are not used by this contract's streams.
    }
    buffered = buffered.slice(start)
  }
}

function nextLineEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 10 || c === 13) return i
  }
  return -1
}
