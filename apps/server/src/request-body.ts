import type { IncomingMessage } from 'node:http'
import { InvalidBodyError, PayloadTooLargeError } from './errors.js'
import { MAX_BODY_DEPTH, nestsDeeperThan } from './json-depth.js'
import { requireJsonContentType } from './negotiation.js'

/** Reads the whole body, refusing more than `limit` bytes (413) before reading them when the length is declared. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'])
  if (declared > limit) {
    // Let node discard the rest, so that the client still reads our 413 instead of a reset.
    req.resume()
    throw new PayloadTooLargeError(limit)
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) {
      req.resume()
      throw new PayloadTooLargeError(limit)
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks, size)
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
