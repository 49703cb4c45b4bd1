import type { DiskGuard } from './disk-guard.js'
import { StoreFullError } from './errors.js'
import type { IndexKeeper } from './index-keeper.js'
import { forEachIndexOperation } from './index-operations.js'
import { encodeIndexState, type IndexState, indexStateKey } from './index-state.js'
import { blockKeyLow, type ChainDb, decodeBlockRecord, hashOfBlockKey, heightOfBlockKey } from './keys.js'
import type { ValidationPool } from './validation-pool.js'
import type { StoredPayload } from './validation-worker.js'

/** What the catch-up reads, derives on and writes through. */
export interface CatchUpParts {
  readonly db: ChainDb
  readonly pool: ValidationPool
  readonly keeper: IndexKeeper
  /** Runs a write in turn with the block writes (`BatchWriter.exclusive`). */
  exclusive<T>(task: () => Promise<T>): Promise<T>
  /** Runs each write; while the disk is full the catch-up waits for it to take writes again. */
  readonly guard: Pick<DiskGuard, 'write' | 'whenWritable'>
  readonly syncWrites: boolean
  /** Blocks read from each chain per step (default 64). */
  readonly blocksPerChain?: number
}

/** What the catch-up has done since the store opened. */
export interface CatchUpProgress {
  /** Blocks whose entries it wrote. */
  readonly indexedBlocks: number
  /** When it started (ms since the epoch), if it ran. */
  readonly startedAt: number | undefined
  /** When it finished, once the index is complete. */
  readonly finishedAt: number | undefined
  /** Why it stopped, if a read or write failed; the index stays incomplete until the store is opened again. */
  readonly error: Error | undefined
}

/**
 * Writes the index entries of the blocks a store held before it kept an index (or while it kept
 * none), newest first: each step reads up to `blocksPerChain` blocks below every chain's position,
 * derives their entries on the validation threads and writes them with the new positions in one
 * batch, in turn with the block writes. Killed at any moment, it resumes from the last position
 * written; a block indexed twice is written the same twice. New blocks meanwhile are written with
 * their entries by the batch writer, so heights at or above a chain's position are complete.
 */
export class IndexCatchUp {
  readonly #parts: CatchUpParts
  #running: Promise<void> | undefined
  #stopping = false
  #indexed = 0
  #startedAt: number | undefined
  #finishedAt: number | undefined
  #error: Error | undefined

  constructor(parts: CatchUpParts) {
    this.#parts = parts
  }

  /** Starts catching up when the index is incomplete; a no-op otherwise or when running. */
  start(): void {
    if (this.#running !== undefined || this.#parts.keeper.state.state !== 'catching-up') return
    this.#startedAt = Date.now()
    this.#running = this.#run()
  }

  progress(): CatchUpProgress {
    return { indexedBlocks: this.#indexed, startedAt: this.#startedAt, finishedAt: this.#finishedAt, error: this.#error }
  }

  /** Resolves once the index is complete, or the catch-up stopped (its error, if any, in `progress()`). */
  async done(): Promise<void> {
    await this.#running
  }

  /** Stops after the step under way; resolves once it is written. */
  async stop(): Promise<void> {
    this.#stopping = true
    await this.#running
  }

  async #run(): Promise<void> {
    try {
      for (;;) {
        const state = this.#parts.keeper.state
        if (this.#stopping || state.state !== 'catching-up') return
        try {
          await this.#step(state)
        } catch (error) {
          // A full disk pauses the catch-up (its step was not written); a closed store ends the wait.
          // Not yet provoked by a test (a catch-up on a filled tmpfs did not reach its write in time).
          /* c8 ignore start */
          if (!(error instanceof StoreFullError)) throw error
          await this.#parts.guard.whenWritable()
        }
        /* c8 ignore stop */
      }
    } catch (error) {
      this.#error = error as Error
    }
  }

  async #step(state: Extract<IndexState, { state: 'catching-up' }>): Promise<void> {
    const { db, pool, keeper, syncWrites } = this.#parts
    const perChain = this.#parts.blocksPerChain ?? 64
    const below = new Map(state.below)
    const stored: StoredPayload[] = []
    for (const [chain, height] of state.below) {
      if (height === 0) continue
      const { records, next } = await readBelow(db, chain, height, perChain)
      stored.push(...records)
      below.set(chain, next)
    }
    const packed = await pool.indexStored(stored)
    const complete = [...below.values()].every((height) => height === 0)
    const next: IndexState = complete ? { state: 'complete' } : { state: 'catching-up', below, total: state.total }
    await this.#parts.exclusive(async () => {
      const batch = db.batch()
      const put = (key: Buffer, value: Buffer): void => void batch.put(key, value)
      for (const operations of packed) forEachIndexOperation(operations, put)
      batch.put(indexStateKey, encodeIndexState(next))
      await this.#parts.guard.write(() => batch.write({ sync: syncWrites }))
    })
    keeper.move(next)
    this.#indexed += stored.length
    if (complete) this.#finishedAt = Date.now()
  }
}

// The blocks of `chain` below `height`, highest first, up to `limit` of them and whole heights only:
// with the next position (the lowest height read, 0 once the chain's first block is read).
async function readBelow(db: ChainDb, chain: number, height: number, limit: number): Promise<{ records: StoredPayload[]; next: number }> {
  const entries = await db.iterator({ gte: blockKeyLow(chain, 0), lt: blockKeyLow(chain, height), reverse: true, limit }).all()
  if (entries.length < limit) return { records: entries.map(storedPayload(chain)), next: 0 }
  const lowest = heightOfBlockKey(entries[entries.length - 1]![0])
  // The lowest height read may hold more blocks than were read: it is read again, whole, next step.
  const whole = entries.filter(([key]) => heightOfBlockKey(key) > lowest)
  if (whole.length > 0) return { records: whole.map(storedPayload(chain)), next: lowest + 1 }
  // Every block read stands at one height (more orphans there than the limit): that height, whole.
  const all = await db.iterator({ gte: blockKeyLow(chain, lowest), lt: blockKeyLow(chain, lowest + 1) }).all()
  return { records: all.map(storedPayload(chain)), next: lowest }
}

const storedPayload =
  (chain: number) =>
  ([key, value]: [Buffer, Buffer]): StoredPayload => ({
    chain,
    height: heightOfBlockKey(key),
    hash: Buffer.from(hashOfBlockKey(key)),
    // A copy: the record's own buffer may be a slice of a larger one, all of which a thread trip would copy.
    payloadJson: Buffer.from(decodeBlockRecord(value).payloadJson),
  })
