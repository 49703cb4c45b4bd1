import { STATUS_CODES } from 'node:http'
import type { Context } from 'koa'
import { contentTypes } from './negotiation.js'

const comma = Buffer.from(',')
const arrayOpen = Buffer.from('[')
const arrayClose = Buffer.from(']')

/** Writes a JSON body from bytes already serialised. */
export function writeJson(ctx: Context, bytes: Buffer, contentType: string = contentTypes.json): void {
  // The type first: a body set without one makes Koa look up a default type it would then drop.
  ctx.set('content-type', contentType)
  ctx.body = bytes
}

/** Writes `{"limit":n,"items":[...],"next":...}` from items already serialised; `limit` is their number. */
export function writePage(ctx: Context, items: readonly Buffer[], next: string | null, contentType: string = contentTypes.json): void {
  const parts: Buffer[] = [Buffer.from(`{"limit":${items.length},"items":`)]
  pushArray(parts, items)
  parts.push(Buffer.from(`,"next":${JSON.stringify(next)}}`))
  writeJson(ctx, Buffer.concat(parts), contentType)
}

/** Writes a bare JSON array from items already serialised. */
export function writeJsonArray(ctx: Context, items: readonly Buffer[]): void {
  const parts: Buffer[] = []
  pushArray(parts, items)
  writeJson(ctx, Buffer.concat(parts))
}

/** Writes a plain-text body, UTF-8. */
export function writeText(ctx: Context, text: string, status = 200): void {
  ctx.status = status
  ctx.set('content-type', 'text/plain;charset=utf-8')
  ctx.body = Buffer.from(text)
}

/** Content type of a problem body. */
export const problemContentType = 'application/problem+json;charset=utf-8'

/** The bytes of an RFC 9457 problem body with the stable `code` of its cause. */
export function problemBody(status: number, detail: string, code: string): Buffer {
  return Buffer.from(JSON.stringify({ type: 'about:blank', title: STATUS_CODES[status] ?? 'Error', status, detail, code }))
}

/** Writes an RFC 9457 problem body with the stable `code` of its cause (the spec profile's errors). */
export function writeProblem(ctx: Context, status: number, detail: string, code: string): void {
  ctx.status = status
  writeJson(ctx, problemBody(status, detail, code), problemContentType)
}

/** Writes the chainweb profile's answer for an unknown hash: `{"key":"<hash>","reason":"key not found"}`. */
export function writeKeyNotFound(ctx: Context, status: number, key: string): void {
  ctx.status = status
  writeJson(ctx, Buffer.from(JSON.stringify({ key, reason: 'key not found' })))
}

/** Answers a status with no body; a content type, when given, says what a GET would carry (HEAD). */
export function writeEmpty(ctx: Context, status: number, contentType?: string): void {
  // A null body first: Koa would otherwise write the status message as text, and setting null after the
  // status would turn it into 204. The null also drops any content type, so the given one comes last.
  ctx.body = null
  ctx.status = status
  if (contentType !== undefined) ctx.set('content-type', contentType)
}

function pushArray(parts: Buffer[], items: readonly Buffer[]): void {
  parts.push(arrayOpen)
  items.forEach((item, index) => {
    if (index > 0) parts.push(comma)
    parts.push(item)
  })
  parts.push(arrayClose)
}
