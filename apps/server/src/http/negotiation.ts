import { NotAcceptableError, UnsupportedMediaTypeError } from '../errors.js'

/** A representation an endpoint can produce. */
export type Representation = 'json' | 'header-object' | 'binary'

/** Content type of each representation as written on the wire. */
export const contentTypes: Readonly<Record<Representation, string>> = {
  json: 'application/json;charset=utf-8',
  'header-object': 'application/json;blockheader-encoding=object',
  binary: 'application/octet-stream',
}

interface MediaRange {
  readonly type: string
  readonly params: ReadonlyMap<string, string>
  readonly q: number
}

function parseAccept(accept: string): MediaRange[] {
  const ranges: MediaRange[] = []
  for (const part of accept.split(',')) {
    const [rawType = '', ...rawParams] = part.split(';')
    const type = rawType.trim().toLowerCase()
    if (type === '') continue
    const params = new Map<string, string>()
    let q = 1
    for (const rawParam of rawParams) {
      const eq = rawParam.indexOf('=')
      const name = (eq < 0 ? rawParam : rawParam.slice(0, eq)).trim().toLowerCase()
      const value =
        eq < 0
          ? ''
          : rawParam
              .slice(eq + 1)
              .trim()
              .replace(/^"(.*)"$/, '$1')
      if (name === '') continue
      // q is a weight, not a parameter of the media type: it never makes a range unacceptable by itself.
      if (name === 'q') q = Number(value)
      else params.set(name, value)
    }
    ranges.push({ type, params, q: Number.isNaN(q) ? 1 : q })
  }
  return ranges
}

function representationOf(range: MediaRange): Representation | undefined {
  const { type, params } = range
  const charset = params.get('charset')
  const charsetOk = charset === undefined || charset.toLowerCase() === 'utf-8'
  if (type === '*/*' || type === 'application/*') return params.size === 0 ? 'json' : undefined
  if (type === 'application/json') {
    const encoding = params.get('blockheader-encoding')
    const others = params.size - (charset === undefined ? 0 : 1) - (encoding === undefined ? 0 : 1)
    if (!charsetOk || others > 0) return undefined
    if (encoding === undefined) return 'json'
    return encoding === 'object' ? 'header-object' : undefined
  }
  if (type === 'application/octet-stream') return params.size === 0 ? 'binary' : undefined
  return undefined
}

/**
 * Chooses what to answer from an Accept header among `offers` (the first offer is the default);
 * throws NotAcceptableError when nothing offered is accepted.
 */
export function negotiate(accept: string | undefined, offers: readonly Representation[] = ['json']): Representation {
  const first = offers[0] ?? 'json'
  if (accept === undefined || accept.trim() === '') return first
  const ranges = parseAccept(accept)
    .filter((range) => range.q > 0)
    .sort((a, b) => b.q - a.q)
  for (const range of ranges) {
    const wanted = representationOf(range)
    // `*/*` and `application/json` ask for the endpoint's default JSON, whichever it is.
    if (wanted === 'json' && offers.includes('json')) return 'json'
    if (wanted === 'json' && (range.type === '*/*' || range.type === 'application/*')) return first
    if (wanted !== undefined && offers.includes(wanted)) return wanted
  }
  throw new NotAcceptableError(
    accept,
    offers.map((offer) => contentTypes[offer]),
  )
}

/** Throws UnsupportedMediaTypeError unless the content type is application/json (parameters allowed). */
export function requireJsonContentType(contentType: string | undefined): void {
  const type = contentType?.split(';')[0]?.trim().toLowerCase()
  if (type !== 'application/json') throw new UnsupportedMediaTypeError(contentType)
}
