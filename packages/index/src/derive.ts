import { isHashText } from '@weft/hash-text'
import type { PayloadWithOutputs } from '@weft/types'
import { InvalidBlockRefError } from './errors.js'
import { type OutputFacts, readOutput } from './output.js'

/** The position of the coinbase in entries: before the block's first transaction (0). */
export const COINBASE_POSITION = -1

/** What deriving entries needs of a block: where it is, and its payload with outputs in the wire form. */
export interface IndexableBlock {
  readonly chain: number
  readonly height: number
  /** The block hash, 32 bytes. */
  readonly hash: Uint8Array
  readonly payload: PayloadWithOutputs
  /**
   * The outputs' bytes, when the caller has decoded them already (hashing a payload does): the
   * coinbase's first, then each transaction's in payload order. Saves decoding base64url again;
   * ignored unless it has one more element than the payload has transactions.
   */
  readonly decodedOutputs?: readonly Uint8Array[]
}

/** A transaction of the block, found by its request key. */
export interface TransactionEntry {
  /** Its index in `payload.transactions`. */
  readonly position: number
  readonly requestKey: string
  /** The pact it continues, when its output names one other than itself (a later step of a defpact). */
  readonly pactId: string | undefined
}

/** An event of a transaction (or of the coinbase). */
export interface EventEntry {
  /** The transaction's index in the payload, or COINBASE_POSITION. */
  readonly position: number
  /** The event's index in its output's `events`. */
  readonly index: number
  /** The module's qualified name (`namespace.module` or `module`). */
  readonly module: string
  readonly name: string
  /** The exact JSON text of its parameters. */
  readonly params: string
  /** The request key of its transaction, or the coinbase's. */
  readonly requestKey: string
}

/** A fungible transfer: a `<module>.TRANSFER` event whose parameters are sender, receiver and amount. */
export interface TransferEntry {
  readonly position: number
  readonly index: number
  /** The module's qualified name: `coin` for KDA. */
  readonly token: string
  /** `""` for a cross-chain transfer's mint (and the coinbase). */
  readonly sender: string
  /** `""` for a cross-chain transfer's burn. */
  readonly receiver: string
  /** Canonical exact decimal text: no exponent, no leading or trailing zeros. */
  readonly amount: string
  /** For a leg with an empty side in a pact's step (a cross-chain transfer): the pact id linking the two legs. */
  readonly pactId: string | undefined
  readonly requestKey: string
}

/** Every entry a block yields. */
export interface BlockEntries {
  readonly block: { readonly chain: number; readonly height: number; readonly hash: Buffer }
  /** How many transactions the payload holds (malformed ones included). */
  readonly transactionCount: number
  /** The coinbase's request key (the parent hash as a JSON string, base64url), when its output reads. */
  readonly coinbase: { readonly requestKey: string } | undefined
  readonly transactions: TransactionEntry[]
  readonly events: EventEntry[]
  readonly transfers: TransferEntry[]
  /** Outputs (coinbase included) that yielded nothing: not base64url JSON objects, or with no usable request key. */
  readonly malformed: number
}

const u32 = (value: number): boolean => Number.isInteger(value) && value >= 0 && value <= 0xffffffff

/** The entries of one block; never throws for what its outputs hold (see README, "Odd outputs"), only for a bad chain, height or hash. */
export function deriveEntries(block: IndexableBlock): BlockEntries {
  const { chain, height, hash, payload } = block
  if (!u32(chain)) throw new InvalidBlockRefError(`Expected a chain id from 0 to 4294967295, received ${String(chain)}`)
  if (!u32(height)) throw new InvalidBlockRefError(`Expected a height from 0 to 4294967295, received ${String(height)}`)
  if (!(hash instanceof Uint8Array) || hash.length !== 32)
    throw new InvalidBlockRefError(`Expected a 32-byte block hash, received ${describe(hash)}`)
  const transactions: TransactionEntry[] = []
  const events: EventEntry[] = []
  const transfers: TransferEntry[] = []
  let malformed = 0
  let coinbase: BlockEntries['coinbase']
  const pairs: unknown = payload?.transactions
  const transactionCount = Array.isArray(pairs) ? pairs.length : 0
  const decoded = block.decodedOutputs?.length === transactionCount + 1 ? block.decodedOutputs : undefined
  const coinbaseOutput = decoded === undefined ? readBase64Output(payload?.coinbase) : readBytes(decoded[0]!)
  if (coinbaseOutput?.requestKey === undefined || coinbaseOutput.requestKey === '') malformed++
  else {
    coinbase = { requestKey: coinbaseOutput.requestKey }
    addEvents(events, transfers, coinbaseOutput, COINBASE_POSITION, coinbaseOutput.requestKey)
  }
  for (let position = 0; position < transactionCount; position++) {
    const pair: unknown = (pairs as unknown[])[position]
    const output = decoded !== undefined ? readBytes(decoded[position + 1]!) : Array.isArray(pair) ? readBase64Output(pair[1]) : undefined
    const requestKey = output?.requestKey
    if (output === undefined || requestKey === undefined || !isRequestKey(requestKey)) {
      malformed++
      continue
    }
    const pactId = output.pactId !== undefined && output.pactId !== requestKey && isRequestKey(output.pactId) ? output.pactId : undefined
    transactions.push({ position, requestKey, pactId })
    addEvents(events, transfers, output, position, requestKey)
  }
  return { block: { chain, height, hash: Buffer.from(hash) }, transactionCount, coinbase, transactions, events, transfers, malformed }
}

// A request key (or pact id) as the index keys them: 43 base64url characters of a 32-byte hash.
const isRequestKey = (text: string): boolean => text.length === 43 && isHashText(text)

function addEvents(events: EventEntry[], transfers: TransferEntry[], output: OutputFacts, position: number, requestKey: string): void {
  for (const event of output.events) {
    const { index, module, name, params, transfer } = event
    events.push({ position, index, module, name, params, requestKey })
    if (transfer === undefined) continue
    const { sender, receiver, amount } = transfer
    const pactId = sender === '' || receiver === '' ? output.pactId : undefined
    transfers.push({ position, index, token: module, sender, receiver, amount, pactId, requestKey })
  }
}

// An output from its base64url text; undefined when it is not a string or not one JSON object.
function readBase64Output(text: unknown): OutputFacts | undefined {
  return typeof text === 'string' ? readBytes(Buffer.from(text, 'base64url')) : undefined
}

// An output from its bytes; undefined unless they are one JSON object.
function readBytes(bytes: Uint8Array): OutputFacts | undefined {
  try {
    return readOutput(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
  } catch {
    // Not JSON (MALFORMED), or not bytes at all.
    return undefined
  }
}

const describe = (value: unknown): string =>
  value instanceof Uint8Array ? `${value.length} bytes` : value === null ? 'null' : typeof value
