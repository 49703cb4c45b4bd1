/** The keep-alive comment of an idle event stream. */
export const keepAliveFrame: Buffer = Buffer.from(':\n\n')

const crlf = Buffer.from('\r\n')

/** `frame` as one chunk of HTTP/1.1 chunked transfer coding: `<length in hex>\r\n<frame>\r\n`. */
export function chunkOf(frame: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${frame.length.toString(16)}\r\n`), frame, crlf])
}

/**
 * Builds the one frame of an event from JSON pieces already serialised: `event:<name>\ndata:<json>\n`,
 * then `id:<id>\n` when it has an id, then the blank line. The id comes last so that everything
 * before it is the real node's event byte for byte.
 */
export function eventFrame(name: string, dataParts: ReadonlyArray<Buffer | string>, id?: string): Buffer {
  const parts: Buffer[] = [Buffer.from(`event:${name}\ndata:`)]
  for (const part of dataParts) parts.push(typeof part === 'string' ? Buffer.from(part) : part)
  parts.push(Buffer.from(id === undefined ? '\n\n' : `\nid:${id}\n\n`))
  return Buffer.concat(parts)
}
