import type { ChainStore, StoreDamage, WriteState } from '@weft/store'
import type { Logger } from 'pino'
import { Gauge, type Registry } from 'prom-client'

/** Whether the store takes writes, as `/ready` and `/status` show it. */
export interface StoreWriteStatus {
  readonly writable: boolean
  /** Why not: `STORE_FULL` (the disk under the store is full), else null. */
  readonly reason: string | null
  /** The store's folder, when full. */
  readonly folder: string | null
  /** Bytes free for the node when last checked, when full (-1: unknown). */
  readonly freeBytes: number | null
  /** When writes stopped, when full. */
  readonly since: string | null
}

/** `state` as `/ready` and `/status` show it. */
export function storeWriteStatus(state: WriteState): StoreWriteStatus {
  if (state.writable) return { writable: true, reason: null, folder: null, freeBytes: null, since: null }
  return {
    writable: false,
    reason: 'STORE_FULL',
    folder: state.path,
    freeBytes: state.freeBytes,
    since: new Date(state.since).toISOString(),
  }
}

/** The status page's words for `status` (its script says the same). */
export function storeText(status: StoreWriteStatus): string {
  return status.writable ? 'writable' : `full: ${status.freeBytes} bytes free in ${status.folder}, writes stopped`
}

/** Logs a change of the store's write state: once when its disk fills up, once when it takes writes again. */
export function logWriteState(log: Logger, state: WriteState): void {
  if (state.writable) log.info('the store takes writes again: the node writes blocks again, from where it stopped')
  else
    log.error(
      { code: 'STORE_FULL', folder: state.path, freeBytes: state.freeBytes },
      'the disk under the store is full: the node writes nothing (reads go on, /ready answers 503) and checks for room on a backoff',
    )
}

/** Logs the first damaged table a read or write met (LevelDB names no file: the repair's report does). */
export function logDamage(log: Logger, damage: StoreDamage): void {
  log.error(
    { code: 'STORE_DAMAGED', folder: damage.path, detail: damage.detail },
    'a read met a damaged table file of the store: what it holds answers 503 STORE_DAMAGED, the rest is served, /ready answers 503; ' +
      'stop the node and run weft-server --repair --data on the folder',
  )
}

/** `weft_store_writable` (1, or 0 while the disk is full) and `weft_store_free_bytes` (while full: at the last check). */
export function registerStoreStateMetrics(registry: Registry, store: ChainStore): void {
  new Gauge({
    name: 'weft_store_writable',
    help: 'Whether the store takes writes: 0 while the disk under it is full (see /ready), else 1',
    registers: [registry],
    collect() {
      this.set(store.writeState().writable ? 1 : 0)
    },
  })
  new Gauge({
    name: 'weft_store_damaged',
    help: 'Whether a read or write met a damaged table file since the node started (1; see /ready), else 0',
    registers: [registry],
    collect() {
      this.set(store.damage() === undefined ? 0 : 1)
    },
  })
  new Gauge({
    name: 'weft_store_full_free_bytes',
    help: 'While the store is full: bytes free on its disk at the last check (0 when writable)',
    registers: [registry],
    collect() {
      const state = store.writeState()
      this.set(state.writable ? 0 : Math.max(0, state.freeBytes))
    },
  })
}
