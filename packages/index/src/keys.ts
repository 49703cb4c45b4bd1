import { type BlockEntries, deriveEntries, type IndexableBlock } from './derive.js'
import {
  BLOCK_HASH_PREFIX_BYTES,
  descending,
  INDEX_PREFIX,
  IndexKind,
  KeyReader,
  REQUEST_KEY_PREFIX_BYTES,
  textField,
  varintLength,
  writeVarint,
} from './key-codec.js'

/** One write of a LevelDB batch. */
export interface IndexOperation {
  readonly key: Buffer
  readonly value: Buffer
}

/** The block an entry names: chain, height and the first BLOCK_HASH_PREFIX_BYTES of its hash. */
export interface BlockPointer {
  readonly chain: number
  readonly height: number
  readonly hashPrefix: Buffer
}

/** An event's place in its block: the transaction's index in the payload (-1 for the coinbase) and the event's in its output. */
export interface EventPlace {
  readonly position: number
  readonly index: number
}

/** A transfer's place in its block, and which sides of it the account is on. */
export interface TransferPlace extends EventPlace {
  readonly sent: boolean
  readonly received: boolean
}

/**
 * An index key and value, decoded. An event or account entry holds every item of its name (or
 * account and token) in one block, in position and index order.
 */
export type DecodedEntry =
  | {
      readonly kind: 'transaction'
      readonly requestKeyPrefix: Buffer
      readonly block: BlockPointer
      /** The first of `positions`. */
      readonly position: number
      /** Every transaction of the block whose request key starts with the prefix, ascending: nearly always one. */
      readonly positions: readonly number[]
    }
  | {
      readonly kind: 'pact'
      readonly pactIdPrefix: Buffer
      readonly block: BlockPointer
      /** The first of `positions`. */
      readonly position: number
      /** Every later step of the block whose pact id starts with the prefix, ascending: nearly always one. */
      readonly positions: readonly number[]
    }
  | { readonly kind: 'event'; readonly module: string; readonly name: string; readonly block: BlockPointer; readonly items: EventPlace[] }
  | {
      readonly kind: 'account'
      readonly account: string
      readonly token: string
      readonly block: BlockPointer
      readonly items: TransferPlace[]
    }
  | { readonly kind: 'block'; readonly block: BlockPointer; readonly transactionCount: number }

const SENT = 1
const RECEIVED = 2

const varint = (value: number): Buffer => {
  const bytes = Buffer.allocUnsafe(varintLength(value))
  writeVarint(bytes, 0, value)
  return bytes
}

// Text fields of recent keys: module and event names, tokens and busy accounts recur block after
// block. Emptied when full, so that memory stays bounded whatever the chain holds.
const fields = new Map<string, Buffer | null>()
const FIELDS_KEPT = 4096
function field(text: string): Buffer | null {
  let known = fields.get(text)
  if (known === undefined) {
    if (fields.size >= FIELDS_KEPT) fields.clear()
    known = textField(text) ?? null
    fields.set(text, known)
  }
  return known
}

// A key: the two prefix bytes, then each part in order.
function key(kind: number, ...parts: Buffer[]): Buffer {
  let length = 2
  for (const part of parts) length += part.length
  const bytes = Buffer.allocUnsafe(length)
  bytes[0] = INDEX_PREFIX
  bytes[1] = kind
  let at = 2
  for (const part of parts) {
    bytes.set(part, at)
    at += part.length
  }
  return bytes
}

// The items of one event or account entry while a block is encoded: slot (position + 1), index and
// (for an account) the sides, in the order the block lists them; by two texts (module and name,
// token and account).
interface Posting {
  readonly head: Buffer
  readonly items: number[]
}
type Postings = Map<string, Map<string, Posting>>

function postingOf(postings: Postings, outer: string, inner: string): Posting | undefined {
  return postings.get(outer)?.get(inner)
}

function addPosting(postings: Postings, outer: string, inner: string, head: Buffer): Posting {
  const posting = { head, items: [] }
  let byInner = postings.get(outer)
  if (byInner === undefined) {
    byInner = new Map()
    postings.set(outer, byInner)
  }
  byInner.set(inner, posting)
  return posting
}

// A posting's value: slot and index varints, and the sides' byte for an account.
function postingValue(items: readonly number[], stride: number): Buffer {
  let length = 0
  for (let i = 0; i < items.length; i += stride) length += varintLength(items[i]!) + varintLength(items[i + 1]!) + stride - 2
  const bytes = Buffer.allocUnsafe(length)
  let at = 0
  for (let i = 0; i < items.length; i += stride) {
    at = writeVarint(bytes, writeVarint(bytes, at, items[i]!), items[i + 1]!)
    if (stride === 3) bytes[at++] = items[i + 2]!
  }
  return bytes
}

/**
 * The batch operations of a block's entries: `{key, value}` pairs, every key in its index's order
 * (see README, "Key layout"); the events of one name, and the transfers of one account and token,
 * share one entry per block. Writing them again is harmless: a block always gives the same pairs.
 */
export function encodeEntries(entries: BlockEntries): IndexOperation[] {
  const { chain, height, hash } = entries.block
  const hashPrefix = hash.subarray(0, BLOCK_HASH_PREFIX_BYTES)
  const chainBytes = varint(chain)
  const heightBytes = Buffer.allocUnsafe(4)
  heightBytes.writeUInt32BE(height)
  const newest = Buffer.allocUnsafe(4)
  newest.writeUInt32BE(descending(height))
  // The block as it ends keys: by request key (chain, height, hash), or newest first (height down, chain, hash).
  const byKey = Buffer.concat([chainBytes, heightBytes, hashPrefix])
  const byAge = Buffer.concat([newest, chainBytes, hashPrefix])
  const operations: IndexOperation[] = []
  if (entries.transactionCount > 0) operations.push({ key: key(IndexKind.block, byAge), value: varint(entries.transactionCount) })
  // Keys hold a request key's first 12 bytes, so two transactions of one block whose keys share
  // them (chance has it never; grinding 2^48 hashes could) share one entry listing both positions.
  const transactions = new Map<string, number[]>()
  const pacts = new Map<string, number[]>()
  for (const { position, requestKey, pactId } of entries.transactions) {
    addPosition(transactions, requestKey, position)
    if (pactId !== undefined) addPosition(pacts, pactId, position)
  }
  for (const [text, positions] of transactions)
    operations.push({ key: key(IndexKind.transaction, requestKeyPrefix(text), byKey), value: positionsValue(positions) })
  for (const [text, positions] of pacts)
    operations.push({ key: key(IndexKind.pact, requestKeyPrefix(text), byKey), value: positionsValue(positions) })
  const events: Postings = new Map()
  for (const { position, index, module, name } of entries.events) {
    let posting = postingOf(events, module, name)
    if (posting === undefined) {
      const moduleField = field(module)
      const nameField = field(name)
      if (moduleField === null || nameField === null) continue
      posting = addPosting(events, module, name, key(IndexKind.event, moduleField, nameField, byAge))
    }
    posting.items.push(position + 1, index)
  }
  const accounts: Postings = new Map()
  for (const { position, index, token, sender, receiver } of entries.transfers) {
    if (sender === receiver) addSide(accounts, token, sender, byAge, position, index, SENT | RECEIVED)
    else {
      addSide(accounts, token, sender, byAge, position, index, SENT)
      addSide(accounts, token, receiver, byAge, position, index, RECEIVED)
    }
  }
  for (const byName of events.values())
    for (const { head, items } of byName.values()) operations.push({ key: head, value: postingValue(items, 2) })
  for (const byAccount of accounts.values())
    for (const { head, items } of byAccount.values()) operations.push({ key: head, value: postingValue(items, 3) })
  return operations
}

// Positions by the first 16 characters of a request key or pact id (12 bytes of base64url).
function addPosition(byPrefix: Map<string, number[]>, text: string, position: number): void {
  const prefix = text.slice(0, (REQUEST_KEY_PREFIX_BYTES / 3) * 4)
  const positions = byPrefix.get(prefix)
  if (positions === undefined) byPrefix.set(prefix, [position])
  else positions.push(position)
}

// A request key or pact entry's value: its positions' varints, ascending (derive lists them so).
function positionsValue(positions: readonly number[]): Buffer {
  if (positions.length === 1) return varint(positions[0]!)
  let length = 0
  for (const position of positions) length += varintLength(position)
  const bytes = Buffer.allocUnsafe(length)
  let at = 0
  for (const position of positions) at = writeVarint(bytes, at, position)
  return bytes
}

// One account's side of a transfer; none for "" (a cross-chain leg's other side, the coinbase's
// sender) or a text too long.
function addSide(accounts: Postings, token: string, account: string, byAge: Buffer, position: number, index: number, flags: number): void {
  let posting = postingOf(accounts, token, account)
  if (posting === undefined) {
    const tokenField = field(token)
    const accountField = account === '' ? null : field(account)
    if (tokenField === null || accountField === null) return
    posting = addPosting(accounts, token, account, key(IndexKind.account, accountField, tokenField, byAge))
  }
  posting.items.push(position + 1, index, flags)
}

/** The first REQUEST_KEY_PREFIX_BYTES of a request key or pact id given as its 43 base64url characters. */
export function requestKeyPrefix(text: string): Buffer {
  // 16 base64url characters are exactly 12 bytes.
  return Buffer.from(text.slice(0, (REQUEST_KEY_PREFIX_BYTES / 3) * 4), 'base64url')
}

/** Decodes a key and its value as `encodeEntries` wrote them; throws INVALID_INDEX_KEY for anything else. */
export function decodeEntry(key: Uint8Array, value: Uint8Array): DecodedEntry {
  const k = new KeyReader(Buffer.from(key.buffer, key.byteOffset, key.byteLength))
  const v = new KeyReader(Buffer.from(value.buffer, value.byteOffset, value.byteLength))
  if (k.byte() !== INDEX_PREFIX) throw k.invalid(`it does not start with ${INDEX_PREFIX}`)
  const kind = k.byte()
  let entry: DecodedEntry
  if (kind === IndexKind.transaction || kind === IndexKind.pact) {
    const prefix = k.slice(REQUEST_KEY_PREFIX_BYTES)
    const block = { chain: k.varint(), height: k.u32(), hashPrefix: k.slice(BLOCK_HASH_PREFIX_BYTES) }
    const positions: number[] = []
    do {
      const position = v.varint()
      if (positions.length > 0 && position <= positions[positions.length - 1]!) throw v.invalid('its positions do not ascend')
      positions.push(position)
    } while (v.at < v.bytes.length)
    const position = positions[0]!
    entry =
      kind === IndexKind.transaction
        ? { kind: 'transaction', requestKeyPrefix: prefix, block, position, positions }
        : { kind: 'pact', pactIdPrefix: prefix, block, position, positions }
  } else if (kind === IndexKind.block) {
    entry = { kind: 'block', block: blockByAge(k), transactionCount: v.varint() }
  } else if (kind === IndexKind.event) {
    const module = k.text()
    const name = k.text()
    const items: EventPlace[] = []
    const block = blockByAge(k)
    do items.push({ position: v.varint() - 1, index: v.varint() })
    while (v.at < v.bytes.length)
    entry = { kind: 'event', module, name, block, items }
  } else if (kind === IndexKind.account) {
    const account = k.text()
    const token = k.text()
    const block = blockByAge(k)
    const items: TransferPlace[] = []
    do {
      const position = v.varint() - 1
      const index = v.varint()
      const flags = v.byte()
      if (flags < 1 || flags > 3) throw v.invalid(`${flags} names no side of a transfer`)
      items.push({ position, index, sent: (flags & SENT) !== 0, received: (flags & RECEIVED) !== 0 })
    } while (v.at < v.bytes.length)
    entry = { kind: 'account', account, token, block, items }
  } else throw k.invalid(`${kind} names no index`)
  k.done()
  v.done()
  return entry
}

// The block at the end of a newest-first key: height counted down, chain, hash prefix.
function blockByAge(k: KeyReader): BlockPointer {
  const height = descending(k.u32())
  return { chain: k.varint(), height, hashPrefix: k.slice(BLOCK_HASH_PREFIX_BYTES) }
}

/** A block's index entries as batch operations: `encodeEntries(deriveEntries(block))`. */
export function indexOperations(block: IndexableBlock): IndexOperation[] {
  return encodeEntries(deriveEntries(block))
}
