import { type Block, type Header, InvalidEncodingError, type Network } from '@weft/block'
import { mapKeyOfHash } from '@weft/hash-text'
import { adjacentLookup, type Judgement, notTheStoredBlock, readNamedBlocks, refusal } from './block-checks.js'
import { type EncodedBlock, encodedHeader } from './block-encoding.js'
import type { BlockReads } from './block-reads.js'
import type { ChainHeads, HeadsDraft } from './chain-heads.js'
import type { JoinedBlock, StoreEvent } from './chain-store.js'
import type { ChangeFeed } from './change-feed.js'
import type { DiskGuard } from './disk-guard.js'
import type { IndexKeeper } from './index-keeper.js'
import { unpackIndexOperations } from './index-operations.js'
import { blocksPerBatch, type EncodedBatch, encodeGroup, inBatches, type PendingInsert } from './insert-batches.js'
import { blockKey, type ChainDb, encodeHashRecord, hashIndexKey, type PutOperation, payloadKey } from './keys.js'
import { type KnownBlocks, LineReader } from './line-reader.js'
import { cutJoined, forkChoiceCut, type NodeCut, sameCut } from './node-cut.js'
import type { RecentHeaders } from './recent-headers.js'
import type { ValidationPool } from './validation-pool.js'
import { WriteQueue } from './write-queue.js'

type Outcome = boolean | Error // what became of one block of a batch: true when written, false when it was stored already

/** A validated batch, ready to write: see `BatchWriter.#prepare`. */
interface PreparedBatch {
  // The blocks to write, by mapKeyOfHash of their hash, in order.
  readonly staged: ReadonlyMap<string, JoinedBlock>
  readonly operations: PutOperation[]
  readonly events: StoreEvent[]
  readonly outcomes: Outcome[]
  // Every chain's best head once the batch is written.
  readonly heads: HeadsDraft
  // The node's cut once the batch is written (the one before it when the batch does not move it).
  readonly cut: ReadonlyMap<number, Header>
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
  /** How a batch's blocks are judged, asked once a batch: every rule by the clock of that moment, or (an import) hashes and parent links. */
  readonly judge: () => Judgement
  /** Where the hashing checks and encodings of a batch run. */
  readonly pool: ValidationPool
  /** Whether each batch is flushed to the disk (fsync) before it counts as written. */
  readonly syncWrites: boolean
  /** Whether blocks are written with their `@weft/index` entries (derived with the hashing checks). */
  readonly index: Pick<IndexKeeper, 'writes'>
  /** Runs each write: refuses it while the disk is full, and notices a full disk. */
  readonly guard: Pick<DiskGuard, 'write'>
}

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
    const batches = inBatches(blocks)
    return this.#insertBatches(batches.length, async (index) => {
      const batch = batches[index]!
      return { headers: batch.map((block) => block.header), encoded: await this.#parts.pool.encode(batch, this.#parts.index.writes) }
    })
  }

  /** `insertMany` of blocks given as their full-block JSON texts, parsed by the pool; see `ChainStore.insertManyJson`. */
  insertManyJson(texts: readonly Uint8Array[]): Promise<number> {
    const batches = inBatches(texts)
    return this.#insertBatches(batches.length, async (index) => {
      const results = await this.#parts.pool.encodeTexts(batches[index]!, this.#parts.index.writes)
      // The blocks before the first text that is not one are written; that text's error follows them.
      const at = results.findIndex((result) => 'unreadable' in result)
      const encoded = (at < 0 ? results : results.slice(0, at)) as EncodedBlock[]
      const batch = { headers: encoded.map(encodedHeader), encoded }
      if (at < 0) return batch
      const { unreadable } = results[at] as { unreadable: string }
      const position = index * blocksPerBatch + at + 1
      return { ...batch, unreadable: new InvalidEncodingError(`Expected text ${position} of the call to be a full block: ${unreadable}`) }
    })
  }

  // Writes `count` batches in order, each validated by `encodeBatch` ahead of its turn.
  #insertBatches(count: number, encodeBatch: (index: number) => Promise<EncodedBatch>): Promise<number> {
    // insert() calls made after this one must not be written before it: they start a new group.
    this.#openGroup = undefined
    const encodings = new Map<number, Promise<EncodedBatch>>()
    const encode = (index: number): void => {
      if (index >= count || encodings.has(index)) return
      const encoding = encodeBatch(index)
      encoding.catch(() => undefined)
      encodings.set(index, encoding)
    }
    // Validation is pure: the pool starts on this call's first batches at once, while the writes
    // queued before it finish, so that a caller's calls one after another leave the pool no gap.
    encode(0)
    encode(1)
    return this.#queue.run(async () => {
      let inserted = 0
      // Each batch is prepared while the one before it is being written (on classic-level's thread
      // pool) and the pool validates the next: one batch ahead, so memory stays bounded. At most one
      // batch is in flight, so a failed write stops everything after it, and events keep their order.
      let previous: PreparedBatch | undefined
      let writing: Promise<void> = Promise.resolve()
      for (let index = 0; index < count; index++) {
        encode(index + 1)
        let batch: EncodedBatch
        let prepared: PreparedBatch
        try {
          batch = await encodings.get(index)!
          encodings.delete(index)
          prepared = await this.#prepare(batch.headers, batch.encoded, true, previous)
        } catch (error) {
          await writing
          throw error
        }
        await writing
        writing = this.#commit(prepared)
        // Awaited before the next batch is written or the call ends; meanwhile a failed write (the
        // disk's) must not count as unhandled, which would end the process.
        writing.catch(() => undefined)
        previous = prepared
        for (const outcome of prepared.outcomes) {
          if (outcome instanceof Error) {
            await writing
            throw outcome
          }
          if (outcome) inserted++
        }
        if (batch.unreadable !== undefined) {
          await writing
          throw batch.unreadable
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
        const { part, encoded } = await encodeGroup(this.#parts.pool, group.slice(start, start + blocksPerBatch), this.#parts.index.writes)
        const prepared = await this.#prepare(
          part.map((pending) => pending.block.header),
          encoded,
          false,
          undefined,
        )
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

  // Validates the blocks of `headers` (parent-first; `encoded`: their hashing checks and records)
  // and stages the writes and events of the valid ones, with each block's outcome. With
  // `stopAtFailure`, the first refused block ends the batch (the blocks before it still count) and
  // the outcomes stop there; otherwise a refused block is skipped and its descendants in the batch
  // are refused for their missing parent. `previous` is the batch being written meanwhile: its
  // blocks count as stored and its heads as the cut.
  async #prepare(
    headers: readonly Header[],
    encoded: readonly EncodedBlock[],
    stopAtFailure: boolean,
    previous: PreparedBatch | undefined,
  ): Promise<PreparedBatch> {
    const { db, network, reads, recent, judge } = this.#parts
    const judgement = judge()
    const inFlight: ReadonlyMap<string, JoinedBlock> = previous?.staged ?? new Map()
    // Blocks among the recent or in-flight headers are stored; only the others are looked up, in
    // one read. Each hash's map key is computed once: it is looked up often.
    const keys = headers.map((header) => mapKeyOfHash(header.hash))
    const stored = keys.map((key) => recent.has(key) || inFlight.has(key))
    const lookedUp = await reads.storedAmong(headers.filter((_, index) => !stored[index]))
    let at = 0
    for (const [index, isStored] of stored.entries()) if (!isStored) stored[index] = lookedUp[at++]!
    // Parents and adjacents among this call's new blocks are staged below; every other one is read up front.
    const newHashes = new Set(keys.filter((_, index) => !stored[index]))
    const remembered: KnownBlocks = (key) => inFlight.get(key) ?? recent.get(key)
    const named = await readNamedBlocks(reads, headers, newHashes, remembered, judgement.full)

    const staged = new Map<string, JoinedBlock>()
    const known: KnownBlocks = (key) => staged.get(key) ?? remembered(key) ?? named.parents.get(key)
    const adjacent = adjacentLookup(known, named)
    const lines = (chain: number): LineReader => new LineReader(db, chain, known)
    const operations: PutOperation[] = []
    const events: StoreEvent[] = []
    const outcomes: Outcome[] = []
    const heads = this.#parts.heads.draft(previous?.heads)
    for (const [index, header] of headers.entries()) {
      const key = keys[index]!
      const { work, record, headerJson, txCount: count, index: entries } = encoded[index]!
      if (stored[index] || staged.has(key)) {
        // Stored already: nothing to write, unless the text is not the block it names.
        const failure = notTheStoredBlock(header, work)
        outcomes.push(failure ?? false)
        if (failure !== undefined && stopAtFailure) break
        continue
      }
      const failure = refusal(header, known(mapKeyOfHash(header.parent))?.header, network, adjacent, work, judgement)
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
      // The block's index entries go in its batch: after a crash both are there or neither is.
      if (entries !== undefined) for (const { key, value } of unpackIndexOperations(entries)) operations.push({ type: 'put', key, value })
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
    // A chained batch: abstract-level's array form copies and checks every operation object first,
    // about twice the main thread's time per put for the same atomic write.
    const batch = this.#parts.db.batch()
    for (const operation of prepared.operations) batch.put(operation.key, operation.value)
    await this.#parts.guard.write(() => batch.write({ sync: this.#parts.syncWrites }))
    this.#parts.heads.commit(prepared.heads)
    this.#parts.cut.move(prepared.cut)
    // Only now are the staged blocks durable, so only now may they answer for parents.
    for (const entry of prepared.staged.values()) this.#parts.recent.add(entry)
    for (const event of prepared.events) this.#parts.feed.emit(event)
  }
}
