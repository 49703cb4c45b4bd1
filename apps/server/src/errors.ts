import { WeftError } from '@weft/errors'

/**
 * Base class of every error the server owns: `code` is stable and listed in the README. The status and
 * body of the answer are not the error's: the profile's error table (profile/error-table.ts) says them by code.
 */
export abstract class ServerError extends WeftError {}

/** The path names no resource: unknown network, chain id, or route. */
export class RouteNotFoundError extends ServerError {
  static override readonly codes = ['NOT_FOUND'] as const
  constructor(path: string, options?: ErrorOptions) {
    super('NOT_FOUND', `No resource at ${path}`, options)
  }
}

/** The path exists but does not answer this method; `allow` lists the methods it answers. */
export class MethodNotAllowedError extends ServerError {
  static override readonly codes = ['METHOD_NOT_ALLOWED'] as const
  readonly allow: readonly string[]
  constructor(method: string, allow: readonly string[], options?: ErrorOptions) {
    super('METHOD_NOT_ALLOWED', `Method ${method} is not allowed here; allowed: ${allow.join(', ')}`, options)
    this.allow = allow
  }
}

/** The Accept header asks for a representation the endpoint cannot produce. */
export class NotAcceptableError extends ServerError {
  static override readonly codes = ['NOT_ACCEPTABLE'] as const
  constructor(accept: string, produced: readonly string[], options?: ErrorOptions) {
    super('NOT_ACCEPTABLE', `Expected an Accept header matching ${produced.join(' or ')}, received ${JSON.stringify(accept)}`, options)
  }
}

/** A request body larger than the limit. */
export class PayloadTooLargeError extends ServerError {
  static override readonly codes = ['PAYLOAD_TOO_LARGE'] as const
  constructor(limit: number, options?: ErrorOptions) {
    super('PAYLOAD_TOO_LARGE', `Request bodies are limited to ${limit} bytes`, options)
  }
}

/** A POST body that is not declared as application/json. */
export class UnsupportedMediaTypeError extends ServerError {
  static override readonly codes = ['UNSUPPORTED_MEDIA_TYPE'] as const
  constructor(received: string | undefined, options?: ErrorOptions) {
    super(
      'UNSUPPORTED_MEDIA_TYPE',
      `Expected content-type application/json, received ${received === undefined ? 'none' : JSON.stringify(received)}`,
      options,
    )
  }
}

/** A query parameter (`limit`, `minheight`, the cut's `maxheight`) that is not a non-negative integer. */
export class InvalidQueryError extends ServerError {
  static override readonly codes = ['INVALID_QUERY'] as const
  constructor(message: string, options?: ErrorOptions) {
    super('INVALID_QUERY', message, options)
  }
}

/** A page's `maxheight` malformed: the contract answers 404 in the spec profile, 400 in the chainweb one. */
export class InvalidMaxheightError extends ServerError {
  static override readonly codes = ['INVALID_MAXHEIGHT'] as const
  constructor(message: string, options?: ErrorOptions) {
    super('INVALID_MAXHEIGHT', message, options)
  }
}

/** A request body that is not the JSON the endpoint expects. */
export class InvalidBodyError extends ServerError {
  static override readonly codes = ['INVALID_BODY'] as const
  constructor(message: string, options?: ErrorOptions) {
    super('INVALID_BODY', message, options)
  }
}

/** A hash in the path that is not 43 characters of base64url. */
export class InvalidHashParameterError extends ServerError {
  static override readonly codes = ['INVALID_HASH'] as const
  constructor(received: string, options?: ErrorOptions) {
    super('INVALID_HASH', `Expected a hash of 43 base64url characters, received ${JSON.stringify(received.slice(0, 64))}`, options)
  }
}

/** The query is well-formed but no block matches it (spec profile only; chainweb answers an empty page). */
export class NoMatchingBlocksError extends ServerError {
  static override readonly codes = ['NO_MATCHING_BLOCKS'] as const
  constructor(options?: ErrorOptions) {
    super('NO_MATCHING_BLOCKS', 'No block matches the query', options)
  }
}

/** No payload has this hash; `hash` is the key of the chainweb profile's `{"key","reason"}` body. */
export class PayloadNotFoundError extends ServerError {
  static override readonly codes = ['PAYLOAD_NOT_FOUND'] as const
  readonly hash: Buffer
  constructor(hash: Buffer, options?: ErrorOptions) {
    super('PAYLOAD_NOT_FOUND', `Expected a stored payload ${hash.toString('base64url')}, found none`, options)
    this.hash = hash
  }
}

/** A client over a limit of the node: its connections, or its address's concurrent requests or event streams. */
export class TooManyRequestsError extends ServerError {
  static override readonly codes = ['TOO_MANY_CONNECTIONS', 'TOO_MANY_REQUESTS', 'TOO_MANY_STREAMS'] as const
  /** Seconds after which a retry may succeed: the answer's `Retry-After`. */
  readonly retryAfter: number
  constructor(code: (typeof TooManyRequestsError.codes)[number], message: string, retryAfter: number, options?: ErrorOptions) {
    super(code, message, options)
    this.retryAfter = retryAfter
  }
}

/** A request node's HTTP parser refused (malformed, headers too large) or that did not arrive in time; answered outside Koa. */
export class ClientRequestError extends ServerError {
  static override readonly codes = ['MALFORMED_REQUEST', 'HEADERS_TOO_LARGE', 'REQUEST_TIMEOUT'] as const
  constructor(code: (typeof ClientRequestError.codes)[number], message: string, options?: ErrorOptions) {
    super(code, message, options)
  }
}

/** Anything the server did not expect: answered as a 500 without detail, and logged with its cause. */
export class InternalServerError extends ServerError {
  static override readonly codes = ['INTERNAL_ERROR'] as const
  constructor(options?: ErrorOptions) {
    super('INTERNAL_ERROR', 'The server failed to answer this request', options)
  }
}

/** A configuration flag, environment variable or `startServer` option has a value the server cannot use. */
export class InvalidConfigError extends ServerError {
  static override readonly codes = ['INVALID_CONFIG'] as const
  constructor(message: string, options?: ErrorOptions) {
    super('INVALID_CONFIG', message, options)
  }
}

/** The data folder cannot serve as the node's store: the message names the cause and the fix. */
export class StoreUnavailableError extends ServerError {
  static override readonly codes = [
    'STORE_LOCKED',
    'STORE_PERMISSION_DENIED',
    'NOT_A_STORE',
    'STORE_WRONG_NETWORK',
    'STORE_CORRUPT',
    'STORE_DISK_FULL',
    'STORE_READ_ONLY',
    'STORE_UNAVAILABLE',
  ] as const
  constructor(code: (typeof StoreUnavailableError.codes)[number], message: string, options?: ErrorOptions) {
    super(code, message, options)
  }
}

/** `--bootstrap-from` could not give the node its store: the manifest, the download, its checksum, or the import failed. */
export class BootstrapError extends ServerError {
  static override readonly codes = ['BOOTSTRAP_FAILED'] as const
  /** What failed: the manifest could not be read or holds no snapshot of the network; the download did not complete; its bytes differ from the manifest's; or the import refused them. */
  readonly reason: 'manifest' | 'download' | 'checksum' | 'import'
  constructor(reason: BootstrapError['reason'], message: string, options?: ErrorOptions) {
    super('BOOTSTRAP_FAILED', message, options)
    this.reason = reason
  }
}

/** A Pact endpoint that needs Pact state (`/send`, `/local`, `/spv`, ..., chainweb-data's `/coins`): this node holds blocks and their outputs, no Pact database. */
export class NoPactStateError extends ServerError {
  static override readonly codes = ['NO_PACT_STATE'] as const
  constructor(endpoint: string, advice = 'Send this request to a chainweb-node', options?: ErrorOptions) {
    super(
      'NO_PACT_STATE',
      `${endpoint} needs Pact state, and this node (Weft) holds none: it serves blocks, payloads and their outputs only. ${advice}`,
      options,
    )
  }
}

/** The transaction index is still catching up on blocks it has not indexed yet, so an answer could miss what they hold. */
export class IndexCatchingUpError extends ServerError {
  static override readonly codes = ['INDEX_CATCHING_UP'] as const
  /** Seconds after which to ask again: the answer's `Retry-After`. */
  readonly retryAfter = 10
  constructor(what: string, progress: number, options?: ErrorOptions) {
    super(
      'INDEX_CATCHING_UP',
      `Expected a complete transaction index to answer ${what}, but it is catching up on older blocks (${Math.floor(progress * 100)}% done): ask again later`,
      options,
    )
  }
}

/** `/listen` waited its time and the request key did not reach the winning branch (the node's 504). */
export class ListenTimeoutError extends ServerError {
  static override readonly codes = ['LISTEN_TIMEOUT'] as const
  constructor(requestKey: string, seconds: number, options?: ErrorOptions) {
    super('LISTEN_TIMEOUT', `Request key ${requestKey} did not reach the winning branch within ${seconds} s`, options)
  }
}

/**
 * No stored transaction has the key asked for: chainweb-data's 404s of `/txs/tx` and `/txs/txs` (in its own
 * words, with the case of no key asked), and the spec profile's `{base}/transaction/{requestKey}`.
 */
export class TxNotFoundError extends ServerError {
  static override readonly codes = ['TX_NOT_FOUND'] as const
  constructor(
    message: 'Tx not found' | 'You must specify a search string' | `Expected a stored transaction ${string}`,
    options?: ErrorOptions,
  ) {
    super('TX_NOT_FOUND', message, options)
  }
}
