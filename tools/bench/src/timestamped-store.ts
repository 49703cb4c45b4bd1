import { encodeHash } from '@weft/hash-text'
import type { ChainStore } from '@weft/store'

/** Wall-clock milliseconds with sub-millisecond precision, comparable between processes of one machine. */
export function wallNow(): number {
  return performance.timeOrigin + performance.now()
}

/**
 * The store as the producer sees it, recording when each block's insert was called (hash text ->
 * wall-clock ms). The clock starts before validation and the write: a store subscriber would run
 * after the server's own subscriber has already written the frame to every socket, and so would
 * leave the fan-out out of the latency.
 */
export function timestampedStore(store: ChainStore): { store: ChainStore; times: Map<string, number> } {
  const times = new Map<string, number>()
  const proxy = new Proxy(store, {
    get(target, property) {
      if (property === 'insertMany') {
        return (blocks: Parameters<ChainStore['insertMany']>[0]) => {
          const now = wallNow()
          for (const block of blocks) times.set(encodeHash(block.header.hash), now)
          return target.insertMany(blocks)
        }
      }
      if (property === 'insert') {
        return (block: Parameters<ChainStore['insert']>[0]) => {
          times.set(encodeHash(block.header.hash), wallNow())
          return target.insert(block)
        }
      }
      const value: unknown = Reflect.get(target, property, target)
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
    },
  })
  return { store: proxy, times }
}
