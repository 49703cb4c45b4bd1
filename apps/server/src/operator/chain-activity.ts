import type { Header } from '@weft/block'
import { encodeHash } from '@weft/hash-text'
import type { ChainStore, StoreEvent } from '@weft/store'

/** A head of the cut replaced by a block that does not descend from it. */
export interface Reorg {
  readonly chain: number
  /** When the node's cut moved, milliseconds since the epoch. */
  readonly at: number
  /** Blocks of the old branch that left the cut (old head height minus fork point height). */
  readonly depth: number
  readonly forkHeight: number
  readonly from: { readonly height: number; readonly hash: string }
  readonly to: { readonly height: number; readonly hash: string }
}

/** Blocks written per chain, the write rate and recent reorgs, from the store's change feed. */
export interface ChainActivity {
  /** Blocks written since start, per chain. */
  inserted(): ReadonlyMap<number, number>
  /** Blocks written per second over the last `RATE_WINDOW_MS` (or since start, when shorter). */
  blocksPerSecond(now?: number): number
  /** The newest reorgs, newest first, at most `RECENT_REORGS`. */
  recentReorgs(): readonly Reorg[]
  /** Called once per reorg, e.g. to count it in the metrics. */
  onReorg(listener: (reorg: Reorg) => void): void
  /** Stops listening to the store. */
  close(): void
}

/** The window of `blocksPerSecond`. */
export const RATE_WINDOW_MS = 60_000
/** How many reorgs `recentReorgs` keeps. */
export const RECENT_REORGS = 20

/** Follows `store`'s change feed from now on. */
export function trackChainActivity(store: ChainStore, clock: () => number = Date.now): ChainActivity {
  const started = clock()
  const inserted = new Map<number, number>()
  // Write times of the window, oldest first: a plain array queue, trimmed on every write and read.
  const times: number[] = []
  let head = 0
  const reorgs: Reorg[] = []
  const listeners: Array<(reorg: Reorg) => void> = []
  let cut: ReadonlyMap<number, Header> = store.cut()
  const trim = (now: number) => {
    while (head < times.length && (times[head] ?? now) <= now - RATE_WINDOW_MS) head++
    if (head > 1024 && head * 2 > times.length) {
      times.splice(0, head)
      head = 0
    }
  }
  const onCut = (event: Extract<StoreEvent, { type: 'cut' }>) => {
    const firstJoined = new Map<number, Header>()
    for (const { header } of event.joined) if (!firstJoined.has(header.chainId)) firstJoined.set(header.chainId, header)
    for (const [chain, to] of event.cut) {
      const from = cut.get(chain)
      const first = firstJoined.get(chain)
      if (from === undefined || first === undefined || to.hash.equals(from.hash) || first.parent.equals(from.hash)) continue
      const forkHeight = first.height - 1
      const reorg: Reorg = {
        chain,
        at: clock(),
        depth: from.height - forkHeight,
        forkHeight,
        from: { height: from.height, hash: encodeHash(from.hash) },
        to: { height: to.height, hash: encodeHash(to.hash) },
      }
      reorgs.unshift(reorg)
      if (reorgs.length > RECENT_REORGS) reorgs.pop()
      for (const listener of listeners) listener(reorg)
    }
    cut = event.cut
  }
  const unsubscribe = store.subscribe((event) => {
    if (event.type === 'cut') return onCut(event)
    const chain = event.header.chainId
    inserted.set(chain, (inserted.get(chain) ?? 0) + 1)
    const now = clock()
    times.push(now)
    trim(now)
  })
  return {
    inserted: () => inserted,
    blocksPerSecond: (now = clock()) => {
      trim(now)
      const span = Math.min(RATE_WINDOW_MS, Math.max(now - started, 1000))
      return ((times.length - head) * 1000) / span
    },
    recentReorgs: () => reorgs,
    onReorg: (listener) => void listeners.push(listener),
    close: unsubscribe,
  }
}
