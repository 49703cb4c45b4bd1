import { decodeHeader, type Header } from '@weft/block'
import { encodeHash, mapKeyOfHash } from '@weft/hash-text'
import { BLOCK_HASH_PREFIX_BYTES, type BlockEntries, type BlockPointer, deriveEntries } from '@weft/index'
import type { HeaderRef } from '@weft/traversal'
import type { PayloadWithOutputs } from '@weft/types'
import { blockKey, type ChainDb, decodeBlockRecord, hashOfBlockKey } from '../keys.js'
import { smallRange } from '../small-range.js'
import type { IndexedBlock } from './index-types.js'

/** What an index read needs of the store, taken once per read: the cut and heads it marks copies against. */
export interface ReadContext {
  readonly db: ChainDb
  readonly cut: ReadonlyMap<number, Header>
  readonly heads: ReadonlyMap<number, Header>
  ancestorAt(hash: Uint8Array, height: number): Promise<HeaderRef | undefined>
}

/** A stored block an index entry led to: its header and payload, read from its record. */
export interface FoundBlock {
  readonly hash: Buffer
  readonly header: Header
  readonly payloadJson: Buffer
}

/** A transaction of a payload: its command and result as JSON texts. */
export interface PayloadTransaction {
  readonly command: string
  readonly result: string
}

const zeros = Buffer.alloc(32 - BLOCK_HASH_PREFIX_BYTES, 0x00)
const ones = Buffer.alloc(32 - BLOCK_HASH_PREFIX_BYTES, 0xff)

/**
 * The blocks one index read meets, each read, decoded and marked once: index entries name a block by
 * chain, height and hash prefix, so each is found by a range read of block keys, and every hit is
 * then confirmed against the block's own payload by the caller. Marks are taken against the cut the
 * read began with, so that one answer is consistent when a reorg lands meanwhile.
 */
export class BlockLookup {
  readonly #context: ReadContext
  readonly #found = new Map<string, Promise<FoundBlock[]>>()
  readonly #marks = new Map<string, Promise<IndexedBlock>>()
  readonly #winning = new Map<string, Promise<Buffer | undefined>>()
  readonly #payloads = new Map<string, PayloadWithOutputs>()
  readonly #entries = new Map<string, BlockEntries>()
  readonly #outputs = new Map<string, Record<string, unknown>>()

  constructor(context: ReadContext) {
    this.#context = context
  }

  /** The stored blocks an entry's pointer may name: at its chain and height, with its hash prefix (nearly always one). */
  blocksAt(pointer: BlockPointer): Promise<FoundBlock[]> {
    const key = `${pointer.chain}:${pointer.height}:${pointer.hashPrefix.toString('hex')}`
    let found = this.#found.get(key)
    if (found === undefined) {
      found = this.#read(pointer)
      this.#found.set(key, found)
    }
    return found
  }

  async #read(pointer: BlockPointer): Promise<FoundBlock[]> {
    const { chain, height, hashPrefix } = pointer
    const gte = blockKey(chain, height, Buffer.concat([hashPrefix, zeros]))
    const lte = blockKey(chain, height, Buffer.concat([hashPrefix, ones]))
    const entries = await smallRange(this.#context.db, { gte, lte })
    return entries.map(([key, value]) => {
      const record = decodeBlockRecord(value)
      return { hash: Buffer.from(hashOfBlockKey(key)), header: decodeHeader(record.headerBinary), payloadJson: record.payloadJson }
    })
  }

  /** The block as answers name it, marked canonical or orphaned with its depth. */
  mark(block: FoundBlock): Promise<IndexedBlock> {
    const key = mapKeyOfHash(block.hash)
    let mark = this.#marks.get(key)
    if (mark === undefined) {
      mark = this.#mark(block.header)
      this.#marks.set(key, mark)
    }
    return mark
  }

  async #mark(header: Header): Promise<IndexedBlock> {
    const { chainId: chain, height } = header
    const winning = await this.#winningAt(chain, height)
    // A chain outside the cut (one that joins at a graph transition not reached yet) has no winning
    // branch: its blocks are orphaned, their depth counted from the chain's best block (every chain
    // of the network has one: its genesis block at least).
    const head = this.#context.cut.get(chain) ?? this.#context.heads.get(chain)!
    return {
      chain,
      height,
      hash: encodeHash(header.hash),
      parent: encodeHash(header.parent),
      creationTime: header.creationTime,
      canonical: winning?.equals(header.hash) === true,
      depth: head.height - height,
    }
  }

  // The hash of the winning block at `height` on `chain`: the cut head's ancestor there.
  #winningAt(chain: number, height: number): Promise<Buffer | undefined> {
    const key = `${chain}:${height}`
    let winning = this.#winning.get(key)
    if (winning === undefined) {
      winning = this.#findWinning(chain, height)
      this.#winning.set(key, winning)
    }
    return winning
  }

  async #findWinning(chain: number, height: number): Promise<Buffer | undefined> {
    const head = this.#context.cut.get(chain)
    if (head === undefined || height > head.height) return undefined
    if (height === head.height) return Buffer.from(head.hash)
    // The head's ancestors are stored down to its chain's genesis, below which no block has entries.
    const ref = await this.#context.ancestorAt(head.hash, height)
    return Buffer.from(ref!.hash)
  }

  /** The block's payload with outputs, parsed once. */
  payload(block: FoundBlock): PayloadWithOutputs {
    const key = mapKeyOfHash(block.hash)
    let payload = this.#payloads.get(key)
    if (payload === undefined) {
      payload = JSON.parse(block.payloadJson.toString('utf8')) as PayloadWithOutputs
      this.#payloads.set(key, payload)
    }
    return payload
  }

  /** The block's `@weft/index` entries, derived once: events and transfers with their exact texts. */
  entries(block: FoundBlock): BlockEntries {
    const key = mapKeyOfHash(block.hash)
    let entries = this.#entries.get(key)
    if (entries === undefined) {
      const { chainId, height } = block.header
      entries = deriveEntries({ chain: chainId, height, hash: block.hash, payload: this.payload(block) })
      this.#entries.set(key, entries)
    }
    return entries
  }

  /** The command and result texts of the transaction at `position` (one `entries` found: the payload has it). */
  transaction(block: FoundBlock, position: number): PayloadTransaction {
    const [command, result] = this.payload(block).transactions[position]!
    return { command: Buffer.from(command, 'base64url').toString('utf8'), result: Buffer.from(result, 'base64url').toString('utf8') }
  }

  /** The `moduleHash` of the event `entries` found at (`position`, `index`) (the coinbase's at -1), or null when it has none. */
  moduleHash(block: FoundBlock, position: number, index: number): string | null {
    // @weft/index derived the event from this output: a JSON object whose `events` hold an object at `index`.
    const event = (this.#output(block, position).events as Array<Record<string, unknown>>)[index]!
    return typeof event.moduleHash === 'string' ? event.moduleHash : null
  }

  /**
   * A cross-chain leg's other end, from the same output: the target chain and receiver of a burn
   * (`<token>.TRANSFER_XCHAIN`), the source chain and sender of a mint (`<token>.TRANSFER_XCHAIN_RECD`);
   * null when the output has no such event, or its chain or account is not a string.
   */
  crossChain(block: FoundBlock, position: number, token: string, leg: 'burn' | 'mint'): { chain: string; account: string } | null {
    const name = leg === 'burn' ? 'TRANSFER_XCHAIN' : 'TRANSFER_XCHAIN_RECD'
    const event = this.entries(block).events.find((e) => e.position === position && e.module === token && e.name === name)
    if (event === undefined) return null
    // A derived event's parameters are the JSON text of an array.
    const [sender, receiver, , chain] = JSON.parse(event.params) as unknown[]
    const account = leg === 'burn' ? receiver : sender
    return typeof chain === 'string' && typeof account === 'string' ? { chain, account } : null
  }

  // The output of the transaction at `position` (the coinbase's at -1), parsed once: one an event was derived from.
  #output(block: FoundBlock, position: number): Record<string, unknown> {
    const key = `${mapKeyOfHash(block.hash)}:${position}`
    let output = this.#outputs.get(key)
    if (output === undefined) {
      const payload = this.payload(block)
      const text = position < 0 ? payload.coinbase : payload.transactions[position]![1]
      output = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Record<string, unknown>
      this.#outputs.set(key, output)
    }
    return output
  }
}
