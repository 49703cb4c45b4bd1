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

/** An index key and value, decoded. `position` is the transaction's index in the payload, -1 for the coinbase. */
export type DecodedEntry =
  | { readonly kind: 'transaction'; readonly requestKeyPrefix: Buffer; readonly block: BlockPointer; readonly position: number }
  | { readonly kind: 'pact'; readonly pactIdPrefix: Buffer; readonly block: BlockPointer; readonly position: number }
  | {
      readonly kind: 'event'
      readonly module: string
      readonly name: string
      readonly block: BlockPointer
      readonly position: number
      readonly index: number
    }
  | {
      readonly kind: 'account'
      readonly account: string
      readonly token: string
      readonly block: BlockPointer
      readonly position: number
      readonly index: number
      /** The account is the transfer's sender. */
      readonly sent: boolean
      /** The account is the transfer's receiver. */
      readonly received: boolean
    }
  | { readonly kind: 'block'; readonly block: BlockPointer; readonly transactionCount: number }

const EMPTY = Buffer.alloc(0)
const SENT = 1
const RECEIVED = 2
const flagValues = [EMPTY, Buffer.of(SENT), Buffer.of(RECEIVED), Buffer.of(SENT | RECEIVED)]

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

// A key: the two prefix bytes, then each part in order, then (for events and transfers) the slot and index varints.
function key(kind: number, a: Buffer, b: Buffer | undefined, c: Buffer | undefined, slot = -1, index = 0): Buffer {
  const length = 2 + a.length + (b?.length ?? 0) + (c?.length ?? 0) + (slot < 0 ? 0 : varintLength(slot) + varintLength(index))
  const bytes = Buffer.allocUnsafe(length)
  bytes[0] = INDEX_PREFIX
  bytes[1] = kind
  bytes.set(a, 2)
  let at = 2 + a.length
  if (b !== undefined) {
    bytes.set(b, at)
    at += b.length
  }
  if (c !== undefined) {
    bytes.set(c, at)
    at += c.length
  }
  if (slot >= 0) writeVarint(bytes, writeVarint(bytes, at, slot), index)
  return bytes
}

/**
 * The batch operations of a block's entries: `{key, value}` pairs, every key in its index's order
 * (see README, "Key layout"). Writing them again is harmless: a block always gives the same pairs.
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
  if (entries.transactionCount > 0)
    operations.push({ key: key(IndexKind.block, byAge, undefined, undefined), value: varint(entries.transactionCount) })
  for (const { position, requestKey, pactId } of entries.transactions) {
    const value = varint(position)
    operations.push({ key: key(IndexKind.transaction, requestKeyPrefix(requestKey), byKey, undefined), value })
    if (pactId !== undefined) operations.push({ key: key(IndexKind.pact, requestKeyPrefix(pactId), byKey, undefined), value })
  }
  for (const { position, index, module, name } of entries.events) {
    const moduleField = field(module)
    const nameField = field(name)
    if (moduleField === null || nameField === null) continue
    operations.push({ key: key(IndexKind.event, moduleField, nameField, byAge, position + 1, index), value: EMPTY })
  }
  for (const { position, index, token, sender, receiver } of entries.transfers) {
    const tokenField = field(token)
    if (tokenField === null) continue
    if (sender === receiver) addSide(operations, sender, tokenField, byAge, position, index, SENT | RECEIVED)
    else {
      addSide(operations, sender, tokenField, byAge, position, index, SENT)
      addSide(operations, receiver, tokenField, byAge, position, index, RECEIVED)
    }
  }
  return operations
}

// One account's entry of a transfer; none for "" (a cross-chain leg's other side, the coinbase's sender) or a text too long.
function addSide(
  operations: IndexOperation[],
  account: string,
  token: Buffer,
  byAge: Buffer,
  position: number,
  index: number,
  flags: number,
): void {
  const accountField = account === '' ? null : field(account)
  if (accountField === null) return
  operations.push({ key: key(IndexKind.account, accountField, token, byAge, position + 1, index), value: flagValues[flags]! })
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
    const position = v.varint()
    entry =
      kind === IndexKind.transaction
        ? { kind: 'transaction', requestKeyPrefix: prefix, block, position }
        : { kind: 'pact', pactIdPrefix: prefix, block, position }
  } else if (kind === IndexKind.block) {
    entry = { kind: 'block', block: blockByAge(k), transactionCount: v.varint() }
  } else if (kind === IndexKind.event) {
    const module = k.text()
    const name = k.text()
    const block = blockByAge(k)
    entry = { kind: 'event', module, name, block, position: k.varint() - 1, index: k.varint() }
  } else if (kind === IndexKind.account) {
    const account = k.text()
    const token = k.text()
    const block = blockByAge(k)
    const position = k.varint() - 1
    const index = k.varint()
    const flags = v.byte()
    if (flags < 1 || flags > 3) throw v.invalid(`${flags} names no side of a transfer`)
    entry = { kind: 'account', account, token, block, position, index, sent: (flags & SENT) !== 0, received: (flags & RECEIVED) !== 0 }
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
