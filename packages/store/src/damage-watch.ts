import { errorCode } from '@weft/errors'
import { StoreDamagedError } from './errors.js'
import type { ChainDb } from './keys.js'

/** The first damage a store met since it opened: LevelDB's words, when, and how many reads or writes met damage since. */
export interface StoreDamage {
  /** The store's folder. */
  readonly path: string
  /** LevelDB's words of the first damage met (it names no file: the repair's report does). */
  readonly detail: string
  /** When it was first met, ms since the epoch. */
  readonly since: number
  /** Reads and writes refused for damage since. */
  readonly refusals: number
}

// The engine methods every read and write of classic-level goes through (abstract-level's
// implementation interface: `get`, `getMany`, `getSync`, `batch`, `put` and every iterator, `keys()`,
// `values()` and `all()` included, call them).
interface Engine {
  _get(...args: unknown[]): Promise<unknown>
  _getMany(...args: unknown[]): Promise<unknown>
  _getSync(...args: unknown[]): unknown
  _put(...args: unknown[]): Promise<unknown>
  _batch(...args: unknown[]): Promise<unknown>
  _iterator(...args: unknown[]): EngineIterator
}

interface EngineIterator {
  _next(...args: unknown[]): Promise<unknown>
  _nextv(...args: unknown[]): Promise<unknown>
}

/**
 * Turns classic-level's `LEVEL_CORRUPTION` (a read, or a write refused after a compaction met a
 * damaged table) into the store's `StoreDamagedError`, and remembers the first: told once to
 * `onDamage`. LevelDB reads without verifying checksums (classic-level 3 sets neither
 * `verify_checksums` nor `paranoid_checks`), so it finds damage where a table's block no longer
 * decompresses or parses: most flipped bytes, not every one.
 */
export class DamageWatch {
  readonly #path: string
  readonly #onDamage: ((damage: StoreDamage) => void) | undefined
  #damage: StoreDamage | undefined

  constructor(path: string, onDamage: ((damage: StoreDamage) => void) | undefined) {
    this.#path = path
    this.#onDamage = onDamage
  }

  /** The first damage met since the store opened, if any. */
  get damage(): StoreDamage | undefined {
    return this.#damage
  }

  /** `error` as the store throws it: `StoreDamagedError` when it is LevelDB finding damage, else itself. */
  convert = (error: unknown): unknown => {
    if (errorCode(error) !== 'LEVEL_CORRUPTION') return error
    const detail = (error as Error).message
    if (this.#damage === undefined) {
      this.#damage = { path: this.#path, detail, since: Date.now(), refusals: 1 }
      this.#onDamage?.(this.#damage)
    } else this.#damage = { ...this.#damage, refusals: this.#damage.refusals + 1 }
    return new StoreDamagedError(this.#path, detail, { cause: error })
  }

  /** Makes every read and write of `db` throw through `convert`. */
  watch(db: ChainDb): void {
    const engine = db as unknown as Engine
    const rethrow = (error: unknown): never => {
      throw this.convert(error)
    }
    for (const name of ['_get', '_getMany', '_put', '_batch'] as const) {
      const method = engine[name].bind(engine)
      engine[name] = (...args) => method(...args).catch(rethrow)
    }
    const getSync = engine._getSync.bind(engine)
    engine._getSync = (...args) => {
      try {
        return getSync(...args)
      } catch (error) {
        return rethrow(error)
      }
    }
    const iterator = engine._iterator.bind(engine)
    engine._iterator = (...args) => {
      const it = iterator(...args)
      for (const name of ['_next', '_nextv'] as const) {
        const method = it[name].bind(it)
        it[name] = (...nextArgs) => method(...nextArgs).catch(rethrow)
      }
      return it
    }
  }
}
