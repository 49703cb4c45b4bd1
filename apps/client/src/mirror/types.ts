import type { ChainStore } from '@weft/store'
import type { NetworkName } from '@weft/types'

/** What the mirror needs of a store: its network, its heads, its inserts and header reads. */
export type MirrorStore = Pick<ChainStore, 'network' | 'heads' | 'insert' | 'insertMany' | 'getHeader'>

/** Options of `mirror`. */
export interface MirrorOptions {
  /** Return after the copy instead of following the upstream. */
  once?: boolean
  /** Stops following (or copying) when aborted. */
  signal?: AbortSignal
  /** Blocks asked per GET block page (default 360). */
  pageSize?: number
  /** Heights re-read below the local head of each chain when resuming, to catch late forks (default 16). */
  resumeMargin?: number
  /** Chains copied at the same time (default 2). */
  concurrency?: number
  /** First wait before reconnecting to the upstream, in milliseconds (default 500). */
  retryDelay?: number
  /** Told what happened: pages copied, the end of a copy, blocks inserted while following. */
  onEvent?: (event: MirrorEvent) => void
  /** Told how far the copy got, in heights: `done` of `total` (only asked of the upstream when given). */
  onProgress?: (done: number, total: number) => void
}

/** What `mirror` reports through `onEvent`. */
export type MirrorEvent =
  | { event: 'page'; chain: number; minheight: number; maxheight: number; blocks: number; inserted: number }
  | { event: 'synced'; inserted: number; chains: number }
  | { event: 'inserted'; chain: number; height: number; hash: string }

/** What a finished mirror did. */
export interface MirrorResult {
  network: NetworkName
  /** Blocks that were new to the local store. */
  inserted: number
}
