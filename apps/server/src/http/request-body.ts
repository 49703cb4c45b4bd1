import type { IncomingMessage } from 'node:http'
import { InvalidBodyError, PayloadTooLargeError } from '../errors.js'
import { MAX_BODY_DEPTH, nestsDeeperThan } from './json-depth.js'
import { requireJsonContentType } from './negotiation.js'

// A body received whole, or known to be over the limit (the rest is then read and dropped).
type ReceivedBody = { readonly bytes: Buffer } | { readonly tooLarge: true }

const tooLarge: ReceivedBody = { tooLarge: true }
const received = new WeakMap<IncomingMessage, Promise<ReceivedBody>>()

function receive(req: IncomingMessage, limit: number): Promise<ReceivedBody> {
  // Let node discard what is over the limit, so that the client still reads our 413 instead of a reset.
  if (Number(req.headers['content-length']) > limit) {
    req.resume()
    return Promise.resolve(tooLarge)
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const take = (chunk: Buffer): void => {
      size += chunk.length
      if (size <= limit) {
        chunks.push(chunk)
        return
      }
      chunks.length = 0
      req.off('data', take)
      req.resume()
      resolve(tooLarge)
    }
    req.on('data', take)
    req.once('end', () => resolve({ bytes: Buffer.concat(chunks, size) }))
    req.once('error', reject)
    // A connection closed before the end (a client gone, a request timeout): settled already otherwise.
    req.once('close', () => reject(new Error('The request closed before its body was received')))
  })
}

/**
 * Receives a request's whole body before its handler runs, and keeps it for `readBody`: a handler
 * then holds a read slot for its work only, not while a slow client sends (eight clients trickling
 * bodies would otherwise hold every slot for the request timeout). Refuses nothing itself: over the
 * limit is `readBody`'s 413, after the checks that come first. Rejects if the client leaves.
 */
export async function receiveBody(req: IncomingMessage, limit: number): Promise<void> {
  const body = receive(req, limit)
  received.set(req, body)
  await body
}

/** Reads the whole body (or takes the one `receiveBody` received), refusing more than `limit` bytes (413). */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const body = await (received.get(req) ?? receive(req, limit))
  if ('tooLarge' in body) throw new PayloadTooLargeError(limit)
  return body.bytes
}

/**
 * Checks the content type (415), reads the body (413), refuses nesting deeper than `MAX_BODY_DEPTH`
 * (400: nothing after the parse may then recurse through the body, error messages included) and
 * parses it as JSON (400).
 */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  requireJsonContentType(req.headers['content-type'])
  const bytes = await readBody(req, limit)
  if (nestsDeeperThan(bytes, MAX_BODY_DEPTH))
    throw new InvalidBodyError(`Expected a JSON body nested at most ${MAX_BODY_DEPTH} deep, received one nested deeper`)
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown
  } catch (error) {
    throw new InvalidBodyError(`Expected a JSON body: ${(error as Error).message}`, { cause: error })
  }
}
