import type { Block, Header, Network } from '@weft/block'
import { hashMapKey } from '@weft/hash-text'
import { adjacentLookup, readNamedBlocks, refusal } from './block-checks.js'
import type { EncodedBlock } from './block-encoding.js'
import type { BlockReads } from './block-reads.js'
import type { JoinedBlock, StoreEvent } from './chain-store.js'
import type { ChangeFeed } from './change-feed.js'
import type { ChainHeads, HeadsDraft } from './cut.js'
import { blockKey, type ChainDb, encodeHashRecord, hashIndexKey, type PutOperation, payloadKey } from './keys.js'
import { type KnownBlocks, LineReader } from './line-reader.js'
import { cutJoined, forkChoiceCut, type NodeCut, sameCut } from './node-cut.js'
import type { RecentHeaders } from './recent-headers.js'
import type { ValidationPool } from './validation-pool.js'
import { WriteQueue } from './write-queue.js'

// What became of one block of a batch: true when written, false when it was stored already.
type Outcome = boolean | Error

/** A validated batch, ready to write: see `BatchWriter.#prepare`. */
interface PreparedBatch {
  // The blocks to write, by hashMapKey of their hash, in order.
  readonly staged: ReadonlyMap<string, JoinedBlock>
  readonly operations: PutOperation[]
  readonly events: StoreEvent[]
  readonly outcomes: Outcome[]
  // Every chain's best head once the batch is written.
  readonly heads: HeadsDraft
  // The node's cut once the batch is written (the one before it when the batch does not move it).
  readonly cut: ReadonlyMap<number, Header>
}

// An insert() call waiting in a group of concurrent ones that are written together.
interface PendingInsert {
  readonly block: Block
  resolve(result: { inserted: boolean }): void
  reject(error: unknown): void
}

/** What a `BatchWriter` writes to and tells. */
export interface BatchWriterParts {
  readonly db: ChainDb
  readonly network: Network
  readonly reads: BlockReads
  readonly recent: RecentHeaders
  readonly heads: ChainHeads
  readonly cut: NodeCut
  readonly feed: ChangeFeed
  /** Whether a block's adjacents must be stored blocks of their chains at its parent's height. */
  readonly checkBraiding: boolean
  /** Where the hashing checks and encodings of a batch run. */
  readonly pool: ValidationPool
  /** Whether each batch is flushed to the disk (fsync) before it counts as written. */
  readonly syncWrites: boolean
}

// Blocks of one insertMany call written per batch: large enough to amortise a write, small enough
// that a batch stays a few hundred kilobytes.
const blocksPerBatch = 256

/**
 * Validates blocks, then writes each batch as one atomic classic-level batch with its indexes,
 * payloads and head changes, and only then moves the cut, remembers the headers and announces them.
 * Writes run one at a time in call order; concurrent `insert` calls are written together.
 */
export class BatchWriter {
  readonly #parts: BatchWriterParts
  readonly #queue = new WriteQueue()
  // The group that insert() calls join until its turn in the queue comes.
  #openGroup: PendingInsert[] | undefined

  constructor(parts: BatchWriterParts) {
    this.#parts = parts
  }

  /** Writes one block, with the concurrent calls of its group; see `ChainStore.insert`. */
  insert(block: Block): Promise<{ inserted: boolean }> {
    return new Promise((resolve, reject) => {
      let group = this.#openGroup
      if (group === undefined) {
        const created: PendingInsert[] = []
        group = created
        this.#openGroup = created
        void this.#queue.run(() => this.#insertGroup(created))
      }
      group.push({ block, resolve, reject })
    })
  }

  /** Writes parent-first blocks by batches, stopping at the first refused one; see `ChainStore.insertMany`. */
  insertMany(blocks: readonly Block[]): Promise<number> {
    // insert() calls made after this one must not be written before it: they start a new group.
    this.#openGroup = undefined
    return this.#queue.run(async () => {
      let inserted = 0
      // Each batch is validated while the one before it is being written: the write runs on
      // classic-level's thread pool, the validation on this thread. At most one batch is in flight,
      // so a failed write stops everything after it, and events keep their order.
      // The pool hashes and encodes the next batch while this one is prepared and the one before is
      // written: one batch ahead, so memory stays bounded and the caller's next call waits its turn.
      let previous: PreparedBatch | undefined
      let writing: Promise<void> = Promise.resolve()
      const batches: Array<readonly Block[]> = []
      for (let start = 0; start < blocks.length; start += blocksPerBatch) batches.push(blocks.slice(start, start + blocksPerBatch))
      const encodings = new Map<number, Promise<EncodedBlock[]>>()
      const encode = (index: number): void => {
        if (index >= batches.length || encodings.has(index)) return
        const encoding = this.#parts.pool.encode(batches[index]!)
        encoding.catch(() => undefined)
        encodings.set(index, encoding)
      }
      for (const [index, batch] of batches.entries()) {
        encode(index)
        encode(index + 1)
        let prepared: PreparedBatch
        try {
          const encoded = await encodings.get(index)!
          encodings.delete(index)
          prepared = await this.#prepare(batch, encoded, true, previous)
        } catch (error) {
          await writing
          throw error
        }
        await writing
        writing = this.#commit(prepared)
        previous = prepared
        for (const outcome of prepared.outcomes) {
          if (outcome instanceof Error) {
            await writing
            throw outcome
          }
          if (outcome) inserted++
        }
      }
      await writing
      return inserted
    })
  }

  /** Runs `task` in turn with the writes: after every write queued before it, before any queued after it. */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    this.#openGroup = undefined
    return this.#queue.run(task)
  }

  /** Resolves once every write queued so far has settled. */
  drain(): Promise<void> {
    return this.#queue.drain()
  }

  // Writes the blocks of concurrent insert() calls together, in call order: each caller learns its
  // own block's outcome, and a refused block refuses no other caller's block.
  async #insertGroup(group: PendingInsert[]): Promise<void> {
    if (this.#openGroup === group) this.#openGroup = undefined
    try {
      for (let start = 0; start < group.length; start += blocksPerBatch) {
        const part = group.slice(start, start + blocksPerBatch)
        const blocks = part.map((pending) => pending.block)
        const prepared = await this.#prepare(blocks, await this.#parts.pool.encode(blocks), false, undefined)
        await this.#commit(prepared)
        part.forEach((pending, index) => {
          const outcome = prepared.outcomes[index]!
          if (outcome instanceof Error) pending.reject(outcome)
          else pending.resolve({ inserted: outcome })
        })
      }
    } catch (error) {
      // The store itself failed (a read, a write, a corrupt record): no caller is left waiting.
      for (const pending of group) pending.reject(error)
    }
  }

  // Validates `blocks` (parent-first) and stages the writes and events of the valid ones, with each
  // block's outcome. With `stopAtFailure`, the first refused block ends the batch (the blocks
  // before it still count) and the outcomes stop there; otherwise a refused block is skipped and
  // its descendants in the batch are refused for their missing parent. `previous` is the batch
  // being written meanwhile: its blocks count as stored and its heads as the cut.
  async #prepare(
    blocks: readonly Block[],
    encoded: readonly EncodedBlock[],
    stopAtFailure: boolean,
    previous: PreparedBatch | undefined,
  ): Promise<PreparedBatch> {
    const { db, network, reads, recent, checkBraiding } = this.#parts
    const inFlight: ReadonlyMap<string, JoinedBlock> = previous?.staged ?? new Map()
    // Blocks among the recent or in-flight headers are stored; only the others are looked up, in
    // one read. Each hash's map key is computed once: it is looked up often.
    const keys = blocks.map((block) => hashMapKey(block.header.hash))
    const stored = keys.map((key) => recent.has(key) || inFlight.has(key))
    const lookedUp = blocks.flatMap((block, index) => (stored[index] ? [] : [block.header.hash]))
    const values = await reads.read(lookedUp.map(hashIndexKey), 'near')
    let at = 0
    for (const [index, isStored] of stored.entries()) if (!isStored) stored[index] = values[at++] !== undefined
    // Parents and adjacents among this call's new blocks are staged below; every other one is read up front.
    const newHashes = new Set(keys.filter((_, index) => !stored[index]))
    const remembered: KnownBlocks = (key) => inFlight.get(key) ?? recent.get(key)
    const named = await readNamedBlocks(reads, blocks, newHashes, remembered, checkBraiding)

    const staged = new Map<string, JoinedBlock>()
    const known: KnownBlocks = (key) => staged.get(key) ?? remembered(key) ?? named.parents.get(key)
    const adjacent = checkBraiding ? adjacentLookup(known, named) : undefined
    const lines = (chain: number): LineReader => new LineReader(db, chain, known)
    const operations: PutOperation[] = []
    const events: StoreEvent[] = []
    const outcomes: Outcome[] = []
    const heads = this.#parts.heads.draft(previous?.heads)
    for (const [index, block] of blocks.entries()) {
      const { header } = block
      const key = keys[index]!
      if (stored[index] || staged.has(key)) {
        outcomes.push(false)
        continue
      }
      const { work, record, headerJson, txCount: count } = encoded[index]!
      const failure = refusal(block, known(hashMapKey(header.parent))?.header, network, adjacent, work)
      outcomes.push(failure ?? true)
      if (failure !== undefined) {
        if (stopAtFailure) break
        continue
      }
      const entry: JoinedBlock = { header, headerJson, txCount: count }
      staged.set(key, entry)
      const recordKey = blockKey(header.chainId, header.height, header.hash)
      // The payload index names the latest block holding the payload: any one serves it.
      operations.push(
        { type: 'put', key: recordKey, value: record },
        { type: 'put', key: hashIndexKey(header.hash), value: encodeHashRecord(header.chainId, header.height, header.parent) },
        { type: 'put', key: payloadKey(header.payloadHash), value: recordKey },
      )
      events.push({ type: 'inserted', header, headerJson, txCount: count })
      heads.offer(header)
    }
    operations.push(...heads.operations())
    // With fork choice the cut follows the heads; once per batch, so that a head the batch
    // replaced never joins it.
    const before = previous?.cut ?? this.#parts.cut.cut
    let cut = before
    if (this.#parts.cut.policy === 'fork-choice') {
      const after = forkChoiceCut(network, heads.heads)
      if (!sameCut(before, after)) {
        events.push({ type: 'cut', cut: after, joined: await cutJoined(network, before, after, lines) })
        cut = after
      }
    }
    return { staged, operations, events, outcomes, heads, cut }
  }

  // Writes a prepared batch atomically, then makes it the cut, remembers its headers and announces it.
  async #commit(prepared: PreparedBatch): Promise<void> {
    if (prepared.operations.length === 0) return
    await this.#parts.db.batch<Buffer, Buffer | string>(prepared.operations, { sync: this.#parts.syncWrites })
    this.#parts.heads.commit(prepared.heads)
    this.#parts.cut.move(prepared.cut)
    // Only now are the staged blocks durable, so only now may they answer for parents.
    for (const entry of prepared.staged.values()) this.#parts.recent.add(entry)
    for (const event of prepared.events) this.#parts.feed.emit(event)
  }
}
