import { decodeHeader, type Header } from '@weft/block'
import { encodeHash, mapKeyOfHash } from '@weft/hash-text'
import { BLOCK_HASH_PREFIX_BYTES, type BlockEntries, type BlockPointer, deriveEntries } from '@weft/index'
import type { HeaderRef } from '@weft/traversal'
import type { PayloadWithOutputs } from '@weft/types'
import { blockKey, type ChainDb, decodeBlockRecord, hashOfBlockKey } from '../keys.js'
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
  readonly #outputs = new Map<string, Record<string, unknown> | undefined>()

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
    const entries = await this.#context.db.iterator({ gte, lte }).all()
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
    // branch: its blocks are orphaned, their depth counted from the chain's best block.
    const head = this.#context.cut.get(chain) ?? this.#context.heads.get(chain)
    return {
      chain,
      height,
      hash: encodeHash(header.hash),
      parent: encodeHash(header.parent),
      creationTime: header.creationTime,
      canonical: winning !== undefined && winning.equals(header.hash),
      depth: head === undefined ? 0 : head.height - height,
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
    const ref = await this.#context.ancestorAt(head.hash, height)
    return ref === undefined ? undefined : Buffer.from(ref.hash)
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

  /** The command and result texts of the transaction at `position`, if the payload has one there. */
  transaction(block: FoundBlock, position: number): PayloadTransaction | undefined {
    const pair: unknown = this.payload(block).transactions[position]
    if (!Array.isArray(pair) || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') return undefined
    return { command: Buffer.from(pair[0], 'base64url').toString('utf8'), result: Buffer.from(pair[1], 'base64url').toString('utf8') }
  }

  /** A string member of the event at (`position`, `index`) of the block's outputs (the coinbase's at -1), or null. */
  eventField(block: FoundBlock, position: number, index: number, field: 'moduleHash'): string | null {
    const events = this.#output(block, position)?.events
    const event: unknown = Array.isArray(events) ? events[index] : undefined
    const value = typeof event === 'object' && event !== null ? (event as Record<string, unknown>)[field] : undefined
    return typeof value === 'string' ? value : null
  }

  /**
   * A cross-chain leg's other end, from the same output: the target chain and receiver of a burn
   * (`<token>.TRANSFER_XCHAIN`), the source chain and sender of a mint (`<token>.TRANSFER_XCHAIN_RECD`).
   */
  crossChain(block: FoundBlock, position: number, token: string, leg: 'burn' | 'mint'): { chain: string; account: string } | null {
    const name = leg === 'burn' ? 'TRANSFER_XCHAIN' : 'TRANSFER_XCHAIN_RECD'
    const event = this.entries(block).events.find((e) => e.position === position && e.module === token && e.name === name)
    if (event === undefined) return null
    const params: unknown = JSON.parse(event.params)
    if (!Array.isArray(params)) return null
    const [sender, receiver, , chain] = params as unknown[]
    const account = leg === 'burn' ? receiver : sender
    return typeof chain === 'string' && typeof account === 'string' ? { chain, account } : null
  }

  // The output of the transaction at `position` (the coinbase's at -1), parsed once; undefined when it is not a JSON object.
  #output(block: FoundBlock, position: number): Record<string, unknown> | undefined {
    const key = `${mapKeyOfHash(block.hash)}:${position}`
    if (this.#outputs.has(key)) return this.#outputs.get(key)
    const text = position < 0 ? this.payload(block).coinbase : this.payload(block).transactions[position]?.[1]
    let output: Record<string, unknown> | undefined
    try {
      const parsed: unknown = typeof text === 'string' ? JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) : undefined
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) output = parsed as Record<string, unknown>
    } catch {
      output = undefined
    }
    this.#outputs.set(key, output)
    return output
  }
}
