import { statfs } from 'node:fs/promises'
import { StoreClosedError, StoreFullError } from './errors.js'
import type { ChainDb } from './keys.js'
import { metaKey } from './keys.js'
import { isDiskFull } from './open-failure.js'

/** Whether the store takes writes: `full` from a write that met a full disk until a check finds room again. */
export type WriteState =
  | { readonly writable: true }
  | {
      readonly writable: false
      readonly reason: 'full'
      /** The store's folder. */
      readonly path: string
      /** Bytes free for this user when last checked (`fs.statfs`), -1 when unknown. */
      readonly freeBytes: number
      /** When the write failed, ms since the epoch. */
      readonly since: number
      /** Checks made since. */
      readonly checks: number
    }

/** When a full store checks for room again. */
export interface DiskChecks {
  /** First wait after the failed write, ms; it doubles per check up to `maxMs` (default 1,000). */
  readonly firstMs?: number
  /** Longest wait between two checks, ms (default 30,000). */
  readonly maxMs?: number
  /**
   * Bytes that must be free (`fs.statfs`, for this user) before a check tries to write again
   * (default 16 MiB: one memtable, the size of the table its flush writes).
   */
  readonly resumeFreeBytes?: number
}

const defaultChecks: Required<DiskChecks> = { firstMs: 1000, maxMs: 30_000, resumeFreeBytes: 16 * 1024 * 1024 }

// A failure of closing or opening the database during a check: the write that follows says whether it takes writes.
const ignore = (): undefined => undefined

/** What a `DiskGuard` guards. */
export interface DiskGuardParts {
  readonly db: ChainDb
  readonly path: string
  readonly syncWrites: boolean
  readonly checks: DiskChecks
  /** Told every change of the write state (full, then writable again). */
  readonly onChange: ((state: WriteState) => void) | undefined
}

const probeKey = metaKey('disk-check')

/** Bytes free for this user on the file system of `path`, -1 when it cannot be read. */
export async function freeBytesOf(path: string): Promise<number> {
  try {
    const stats = await statfs(path)
    return stats.bavail * stats.bsize
  } catch {
    return -1
  }
}

/**
 * Runs the store's writes: a write that meets a full disk (ENOSPC) turns the store `full`, after
 * which writes are refused at once with `StoreFullError` (nothing half-written: each write is one
 * atomic batch) while reads go on. It checks on a backoff: once enough bytes are free, the database
 * is closed and opened again under the store (see `#check`) and a small write tries the disk; the
 * first that succeeds makes the store writable again.
 */
export class DiskGuard {
  readonly #parts: DiskGuardParts
  readonly #checks: Required<DiskChecks>
  #state: WriteState = { writable: true }
  #error: StoreFullError | undefined
  #timer: NodeJS.Timeout | undefined
  #checking: Promise<void> | undefined
  #waiters: Array<{ resolve: () => void; reject: (error: unknown) => void }> = []
  #closed = false

  constructor(parts: DiskGuardParts) {
    this.#parts = parts
    this.#checks = { ...defaultChecks, ...parts.checks }
  }

  /** The write state of this moment. */
  get state(): WriteState {
    return this.#state
  }

  /** Runs `write` unless the store is full (then throws its `StoreFullError`); a write that meets a full disk makes it full. */
  async write<T>(write: () => Promise<T>): Promise<T> {
    if (this.#error !== undefined) throw this.#error
    try {
      return await write()
    } catch (error) {
      if (!isDiskFull(error)) throw error
      throw await this.#becomeFull(error)
    }
  }

  /** Resolves once the store takes writes (at once when it does); rejects with `StoreClosedError` if it closes first. */
  whenWritable(): Promise<void> {
    if (this.#state.writable) return Promise.resolve()
    if (this.#closed) return Promise.reject(new StoreClosedError())
    // Someone waits for the disk: the next check keeps the process alive.
    this.#timer!.ref()
    return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }))
  }

  /** Stops checking; waits for a check under way (which may be opening the database again). */
  async close(): Promise<void> {
    this.#closed = true
    clearTimeout(this.#timer)
    await this.#checking
    for (const waiter of this.#waiters.splice(0)) waiter.reject(new StoreClosedError())
  }

  // Writes run one at a time (the store's write queue), so only one write at a time can fail here.
  async #becomeFull(cause: unknown): Promise<StoreFullError> {
    const freeBytes = await freeBytesOf(this.#parts.path)
    this.#error = new StoreFullError(this.#parts.path, freeBytes, { cause })
    this.#change({ writable: false, reason: 'full', path: this.#parts.path, freeBytes, since: Date.now(), checks: 0 })
    this.#schedule(this.#checks.firstMs)
    return this.#error
  }

  #schedule(ms: number): void {
    // A check that close() waited for must not start another, which would open the database again.
    /* c8 ignore next */
    if (this.#closed) return
    this.#timer = setTimeout(() => {
      this.#checking = this.#check(ms).finally(() => {
        this.#checking = undefined
      })
    }, ms)
    // A full store that nobody waits on must not keep a process alive that has nothing else to do.
    if (this.#waiters.length === 0) this.#timer.unref()
  }

  // Runs only while full: the timer is set when the store becomes full or a check fails, and cleared by close().
  async #check(waited: number): Promise<void> {
    const state = this.#state as Extract<WriteState, { writable: false }>
    const freeBytes = await freeBytesOf(this.#parts.path)
    const next = Math.min(waited * 2, this.#checks.maxMs)
    this.#state = { ...state, freeBytes, checks: state.checks + 1 }
    // Unknown free space (-1) counts as none: a system without statfs would never take writes again, which none that Node runs on is.
    if (freeBytes < this.#checks.resumeFreeBytes) return this.#schedule(next)
    // Always opened again before the next write: a write that failed for want of space can leave a
    // torn record at the end of LevelDB's log, and records appended after it were lost when the log
    // was replayed (measured: every block written after the resume, gone after a restart). Opening
    // again replays the log up to the tear into a table and starts a new log; it also clears an
    // error LevelDB latched (a compaction that failed for want of space refuses every write after).
    await this.#parts.db.close().catch(ignore)
    await this.#parts.db.open().catch(ignore)
    if (!(await this.#tryWrite())) return this.#schedule(next)
    this.#error = undefined
    this.#change({ writable: true })
    for (const waiter of this.#waiters.splice(0)) waiter.resolve()
  }

  async #tryWrite(): Promise<boolean> {
    try {
      await this.#parts.db.put(probeKey, Buffer.from(String(Date.now())), { sync: this.#parts.syncWrites })
      return true
    } catch {
      return false
    }
  }

  #change(state: WriteState): void {
    this.#state = state
    this.#parts.onChange?.(state)
  }
}
