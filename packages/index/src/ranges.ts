import { decodeHash, isHashText } from '@weft/hash-text'
import { InvalidIndexQueryError } from './errors.js'
import {
  descending,
  INDEX_PREFIX,
  IndexKind,
  KeyReader,
  MAX_TEXT_BYTES,
  REQUEST_KEY_PREFIX_BYTES,
  successor,
  textField,
  varintLength,
  writeVarint,
} from './key-codec.js'

/** A range of keys in the form classic-level's iterators take. Reading it forwards gives the answer's order. */
export interface KeyRange {
  readonly gte: Buffer
  readonly lt: Buffer
}

/**
 * Where a page stopped, a keyset cursor: the key of the entry it stopped in, and how many of that
 * entry's items (events of a name, transfers of an account, in one block) it gave. The next page
 * reads from that key on and leaves out that many of its items; entries never change, so the
 * count stays right however many blocks arrive.
 */
export interface IndexCursor {
  readonly key: Uint8Array
  readonly taken: number
}

/** Height bounds (both included) and the cursor of the page before. */
export interface PageQuery {
  readonly minheight?: number
  readonly maxheight?: number
  readonly cursor?: IndexCursor
}

const prefixOf = (kind: number, ...parts: Buffer[]): Buffer => Buffer.concat([Buffer.of(INDEX_PREFIX, kind), ...parts])
const varint = (value: number): Buffer => {
  const bytes = Buffer.allocUnsafe(varintLength(value))
  writeVarint(bytes, 0, value)
  return bytes
}
const u32 = (value: number): Buffer => {
  const bytes = Buffer.allocUnsafe(4)
  bytes.writeUInt32BE(value)
  return bytes
}

function invalid(message: string, options?: ErrorOptions): InvalidIndexQueryError {
  return new InvalidIndexQueryError('INVALID_INDEX_QUERY', message, options)
}

function text(name: string, value: unknown): Buffer {
  const field = typeof value === 'string' ? textField(value) : undefined
  if (field === undefined)
    throw invalid(`Expected ${name} to be a text of at most ${MAX_TEXT_BYTES} UTF-8 bytes, received ${describe(value)}`)
  return field
}

function chainOf(chain: unknown): Buffer {
  if (!(typeof chain === 'number' && Number.isInteger(chain) && chain >= 0 && chain <= 0xffffffff))
    throw invalid(`Expected a chain id from 0 to 4294967295, received ${describe(chain)}`)
  return varint(chain)
}

// The 12 bytes a request key or pact id is keyed by, from its 43 base64url characters or its 32 bytes.
function hashPrefix(name: string, value: unknown): Buffer {
  if (value instanceof Uint8Array && value.length === 32) return Buffer.from(value.subarray(0, REQUEST_KEY_PREFIX_BYTES))
  if (typeof value === 'string' && isHashText(value)) return decodeHash(value).subarray(0, REQUEST_KEY_PREFIX_BYTES)
  throw invalid(`Expected ${name} as 43 base64url characters or 32 bytes, received ${describe(value)}`)
}

function prefixRange(prefix: Buffer): KeyRange {
  return { gte: prefix, lt: successor(prefix) }
}

/** The places of one request key: on one chain, or on every chain. Entries hold its first 12 bytes: check the full key in the payload. */
export function transactionRange(requestKey: string | Uint8Array, chain?: number): KeyRange {
  const prefix = hashPrefix('the request key', requestKey)
  return prefixRange(
    chain === undefined ? prefixOf(IndexKind.transaction, prefix) : prefixOf(IndexKind.transaction, prefix, chainOf(chain)),
  )
}

/** The later steps of one pact (transactions whose output continues it), on one chain or every chain. */
export function pactRange(pactId: string | Uint8Array, chain?: number): KeyRange {
  const prefix = hashPrefix('the pact id', pactId)
  return prefixRange(chain === undefined ? prefixOf(IndexKind.pact, prefix) : prefixOf(IndexKind.pact, prefix, chainOf(chain)))
}

/** Events of one qualified name (`module` as `namespace.module`, `name` as `TRANSFER`), newest first. */
export function eventRange(query: { readonly module: string; readonly name: string } & PageQuery): KeyRange {
  return pageRange(prefixOf(IndexKind.event, text('module', query.module), text('name', query.name)), query)
}

/** Every event of one module, name by name (each name newest first): read the first key to learn a name, then skip to `eventRange(...).lt`. */
export function moduleEventsRange(module: string): KeyRange {
  return prefixRange(prefixOf(IndexKind.event, text('module', module)))
}

/** The whole event index, module by module and name by name. */
export function allEventsRange(): KeyRange {
  return prefixRange(prefixOf(IndexKind.event))
}

/** Transfers of one token that an account sent or received, newest first. */
export function accountRange(query: { readonly account: string; readonly token: string } & PageQuery): KeyRange {
  return pageRange(prefixOf(IndexKind.account, text('account', query.account), text('token', query.token)), query)
}

/** Every transfer of an account, token by token (each newest first). */
export function accountTokensRange(account: string): KeyRange {
  return prefixRange(prefixOf(IndexKind.account, text('account', account)))
}

/** Blocks that hold transactions, newest first (all chains, orphans included): the walk behind recent transactions and searches. */
export function blockRange(query: PageQuery = {}): KeyRange {
  return pageRange(prefixOf(IndexKind.block), query)
}

function height(name: string, value: unknown, otherwise: number): number {
  if (value === undefined) return otherwise
  if (!(typeof value === 'number' && Number.isSafeInteger(value) && value >= 0))
    throw invalid(`Expected ${name} to be an integer from 0, received ${describe(value)}`)
  return Math.min(value, 0xffffffff)
}

// A newest-first range under `prefix`: heights from maxheight down to minheight, from a cursor on.
function pageRange(prefix: Buffer, query: PageQuery): KeyRange {
  const max = height('maxheight', query.maxheight, 0xffffffff)
  const min = height('minheight', query.minheight, 0)
  const gte = Buffer.concat([prefix, u32(descending(max))])
  const lt = successor(Buffer.concat([prefix, u32(descending(min))]))
  const { cursor } = query
  if (cursor === undefined) return { gte, lt }
  const key = cursorKey(cursor)
  if (Buffer.compare(key, gte) < 0 || Buffer.compare(key, lt) >= 0)
    throw new InvalidIndexQueryError(
      'CURSOR_OUT_OF_RANGE',
      `Expected a cursor within the queried range, received the key ${key.toString('hex')}`,
    )
  return { gte: key, lt }
}

function cursorKey(cursor: IndexCursor): Buffer {
  const { key, taken } = cursor as Partial<IndexCursor>
  if (!(key instanceof Uint8Array) || !(typeof taken === 'number' && Number.isSafeInteger(taken) && taken >= 0))
    throw invalid(`Expected a cursor of a key and a count of items from 0, received ${describe(key)} and ${describe(taken)}`)
  return Buffer.from(key.buffer, key.byteOffset, key.byteLength)
}

/** A cursor as bytes (the count as a varint, then the key), for a page token. */
export function encodeCursor(cursor: IndexCursor): Buffer {
  const key = cursorKey(cursor)
  if (cursor.taken > 0xffffffff) throw invalid(`Expected a cursor's count of items below 2^32, received ${cursor.taken}`)
  return Buffer.concat([varint(cursor.taken), key])
}

/** The cursor `encodeCursor` wrote; INVALID_INDEX_QUERY for bytes it did not write. */
export function decodeCursor(bytes: Uint8Array): IndexCursor {
  const reader = new KeyReader(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
  try {
    const taken = reader.varint()
    const key = reader.slice(bytes.length - reader.at)
    if (key.length < 2 || key[0] !== INDEX_PREFIX) throw reader.invalid('it names no index key')
    return { key, taken }
  } catch (error) {
    throw invalid(`Expected a cursor of @weft/index, received ${Buffer.from(bytes).toString('hex')}`, { cause: error })
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return value.length > 60 ? `a text of ${value.length} characters` : JSON.stringify(value)
  if (value instanceof Uint8Array) return `${value.length} bytes`
  return typeof value === 'number' ? String(value) : value === null ? 'null' : typeof value
}
