/** Base class of every error the server maps to an HTTP answer: `code` is stable and listed in the README. */
export class ServerError extends Error {
  readonly code: string
  /** Status in the spec profile; the chainweb profile may answer differently (see profiles.ts). */
  readonly status: number
  constructor(code: string, status: number, message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = new.target.name
    this.code = code
    this.status = status
  }
}

/** The path names no resource: unknown network, chain id, or route. */
export class RouteNotFoundError extends ServerError {
  constructor(path: string, options?: ErrorOptions) {
    super('NOT_FOUND', 404, `No resource at ${path}`, options)
  }
}

/** The path exists but does not answer this method. */
export class MethodNotAllowedError extends ServerError {
  readonly allow: readonly string[]
  constructor(method: string, allow: readonly string[], options?: ErrorOptions) {
    super('METHOD_NOT_ALLOWED', 405, `Method ${method} is not allowed here; allowed: ${allow.join(', ')}`, options)
    this.allow = allow
  }
}

/** The Accept header asks for a representation the endpoint cannot produce. */
export class NotAcceptableError extends ServerError {
  constructor(accept: string, produced: readonly string[], options?: ErrorOptions) {
    super('NOT_ACCEPTABLE', 406, `Expected an Accept header matching ${produced.join(' or ')}, received ${JSON.stringify(accept)}`, options)
  }
}

/** A request body larger than the limit. */
export class PayloadTooLargeError extends ServerError {
  constructor(limit: number, options?: ErrorOptions) {
    super('PAYLOAD_TOO_LARGE', 413, `Request bodies are limited to ${limit} bytes`, options)
  }
}

/** A POST body that is not declared as application/json. */
export class UnsupportedMediaTypeError extends ServerError {
  constructor(received: string | undefined, options?: ErrorOptions) {
    super(
      'UNSUPPORTED_MEDIA_TYPE',
      415,
      `Expected content-type application/json, received ${received === undefined ? 'none' : JSON.stringify(received)}`,
      options,
    )
  }
}

/** A query parameter (`limit`, `minheight`, ...) that is not a non-negative integer. */
export class InvalidQueryError extends ServerError {
  constructor(name: string, received: unknown, options?: ErrorOptions) {
    super(
      'INVALID_QUERY',
      400,
      `Expected query parameter ${name} to be a non-negative integer, received ${JSON.stringify(received)}`,
      options,
    )
  }
}

/** `maxheight` malformed: the contract answers 404 in the spec profile, 400 in the chainweb one. */
export class InvalidMaxheightError extends ServerError {
  constructor(received: unknown, options?: ErrorOptions) {
    super(
      'INVALID_MAXHEIGHT',
      404,
      `Expected query parameter maxheight to be a non-negative integer, received ${JSON.stringify(received)}`,
      options,
    )
  }
}

/** `next` malformed: 404 in the spec profile, 400 in the chainweb one. */
export class InvalidCursorError extends ServerError {
  constructor(received: unknown, options?: ErrorOptions) {
    super('INVALID_CURSOR', 404, `Expected next to be inclusive:<hash> or exclusive:<hash>, received ${JSON.stringify(received)}`, options)
  }
}

/** A request body that is not the JSON the endpoint expects. */
export class InvalidBodyError extends ServerError {
  constructor(message: string, options?: ErrorOptions) {
    super('INVALID_BODY', 400, message, options)
  }
}

/** A hash in the path that is not 43 characters of base64url. */
export class InvalidHashParameterError extends ServerError {
  constructor(received: string, options?: ErrorOptions) {
    super('INVALID_HASH', 400, `Expected a hash of 43 base64url characters, received ${JSON.stringify(received.slice(0, 64))}`, options)
  }
}

/** More than 32 distinct upper or lower bounds. */
export class TooManyBoundsError extends ServerError {
  constructor(which: 'upper' | 'lower', count: number, max: number, options?: ErrorOptions) {
    super('TOO_MANY_BOUNDS', 400, `Expected at most ${max} distinct ${which} bounds, received ${count}`, options)
  }
}

/** The query is well-formed but no block matches it (spec profile only; chainweb answers an empty page). */
export class NoMatchingBlocksError extends ServerError {
  constructor(options?: ErrorOptions) {
    super('NO_MATCHING_BLOCKS', 404, 'No block matches the query', options)
  }
}

/** A hash the request names is unknown: answered as `{"key","reason"}` in the chainweb profile. */
export class KeyNotFoundError extends ServerError {
  /** The hash text as the client sent it (or as we encode it). */
  readonly key: string
  constructor(code: 'CURSOR_NOT_FOUND' | 'BLOCK_NOT_FOUND' | 'PAYLOAD_NOT_FOUND', key: string, what: string, options?: ErrorOptions) {
    super(code, 404, `${what} ${key} is not known`, options)
    this.key = key
  }
}

/** A configuration flag or environment variable has a value the server cannot use. */
export class InvalidConfigError extends ServerError {
  constructor(message: string, options?: ErrorOptions) {
    super('INVALID_CONFIG', 500, message, options)
  }
}
