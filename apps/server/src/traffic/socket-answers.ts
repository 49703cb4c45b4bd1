import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import type { Logger } from 'pino'
import { commonHeaderEntries } from '../http/common-headers.js'
import { problemBody, problemContentType } from '../http/responses.js'
import type { AnsweredCode } from '../profile/error-table.js'
import type { ProfileRules } from '../profile/profiles.js'

// What node's parser reports, as the code and words of the answer (the rest is MALFORMED_REQUEST).
const refusals: Readonly<Record<string, readonly [AnsweredCode, string]>> = {
  ERR_HTTP_REQUEST_TIMEOUT: ['REQUEST_TIMEOUT', 'Expected the whole request within the time the node allows, received it too slowly'],
  HPE_HEADER_OVERFLOW: ['HEADERS_TOO_LARGE', 'Expected request headers of at most 16 KiB, received more'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: ['PAYLOAD_TOO_LARGE', 'Expected chunk extensions of at most 16 KiB, received more'],
}

/** The raw bytes of an error answer outside Koa: status line, common headers, the profile's body for `code`, `connection: close`. */
export function rawErrorAnswer(rules: ProfileRules, nodeVersion: string, socket: Socket, code: AnsweredCode, message: string): Buffer {
  const { status, body } = rules.errors[code]
  const [contentType, bytes] =
    body === 'problem'
      ? [problemContentType, problemBody(status, message, code)]
      : body === 'text'
        ? ['text/plain;charset=utf-8', Buffer.from(`${message}\n`)]
        : [undefined, Buffer.alloc(0)]
  const headers = [
    ...commonHeaderEntries(rules, nodeVersion, socket),
    ...(contentType === undefined ? [] : [['content-type', contentType] as const]),
    ['content-length', String(bytes.length)],
    ['connection', 'close'],
  ]
  const head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`
  return Buffer.concat([Buffer.from(head, 'latin1'), bytes])
}

/**
 * The server's `clientError` listener: answers what node's HTTP parser refused (malformed HTTP,
 * headers over 16 KiB) or cut (headers or the whole request late: slowloris, a trickled body) as node
 * itself would (400, 431, 413, 408, then close), but with the contract's common headers and the
 * profile's error body. As node does, it writes only while no answer of the connection has begun.
 */
export function answerClientErrors(rules: ProfileRules, nodeVersion: string, logger: Logger): (error: Error, socket: Duplex) => void {
  return (error, duplex) => {
    const socket = duplex as Socket
    const code = (error as { code?: string }).code ?? ''
    logger.debug({ code, reason: error.message, peer: socket.remoteAddress }, 'refused a malformed or late request')
    // node's response of the request being read, if any (node's own handler reads the same field).
    const answering = (socket as { _httpMessage?: ServerResponse | null })._httpMessage
    if (code !== 'ECONNRESET' && socket.writable && (answering == null || !answering.headersSent)) {
      const [answer, message] = refusals[code] ?? [
        'MALFORMED_REQUEST',
        `Expected an HTTP/1.1 request, received one node could not parse (${code || error.message})`,
      ]
      answerAndClose(socket, rawErrorAnswer(rules, nodeVersion, socket, answer, message))
      return
    }
    socket.destroy()
  }
}

/** The server's `connect` listener: CONNECT never reaches the request handler, and node would close it unanswered; 405. */
export function answerConnect(rules: ProfileRules, nodeVersion: string): (req: IncomingMessage, socket: Duplex) => void {
  return (_req, duplex) => {
    const socket = duplex as Socket
    socket.on('error', () => {})
    const message = 'Method CONNECT is not allowed here; allowed: GET, HEAD, POST, OPTIONS'
    answerAndClose(socket, rawErrorAnswer(rules, nodeVersion, socket, 'METHOD_NOT_ALLOWED', message))
  }
}

// Writes an answer and closes the connection once it is out, or at once if it never goes (a client that reads nothing).
function answerAndClose(socket: Socket, answer: Buffer): void {
  socket.write(answer)
  socket.destroySoon()
  setTimeout(() => socket.destroy(), 1000).unref()
}
