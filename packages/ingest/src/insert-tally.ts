import type { Header } from '@weft/block'
import type { ChainStore } from '@weft/store'

/** Called with every block the store writes, in insertion order. */
export type InsertObserver = (header: Header) => void

// The blocks-per-second figure is the inserts of the last few whole seconds, averaged.
const rateSeconds = 10

/** Counts the blocks the store writes (from its change feed) and tells the observers that ask. */
export class InsertTally {
  /** Blocks written since ingest started. */
  total = 0
  readonly #observers = new Set<InsertObserver>()
  readonly #unsubscribe: () => void
  // Inserts per second for the last `rateSeconds` seconds, by second number modulo the ring size.
  readonly #ring = new Array<number>(rateSeconds + 1).fill(0)
  #ringSecond = 0

  constructor(store: ChainStore) {
    this.#unsubscribe = store.subscribe((event) => {
      if (event.type !== 'inserted') return
      this.total += 1
      this.#count(Date.now())
      for (const observer of this.#observers) observer(event.header)
    })
  }

  /** Adds an observer; returns the function that removes it. */
  observe(observer: InsertObserver): () => void {
    this.#observers.add(observer)
    return () => void this.#observers.delete(observer)
  }

  /** Blocks written per second, averaged over the last whole seconds. */
  blocksPerSecond(now = Date.now()): number {
    const second = Math.floor(now / 1000)
    this.#advance(second)
    let sum = 0
    for (let back = 1; back <= rateSeconds; back++) sum += this.#ring[(second - back) % this.#ring.length]!
    return sum / rateSeconds
  }

  /** Stops counting. */
  close(): void {
    this.#unsubscribe()
    this.#observers.clear()
  }

  #count(now: number): void {
    const second = Math.floor(now / 1000)
    this.#advance(second)
    this.#ring[second % this.#ring.length]! += 1
  }

  // Clears the seconds that passed without inserts since the last one counted.
  #advance(second: number): void {
    if (second <= this.#ringSecond) return
    for (let s = Math.max(this.#ringSecond + 1, second - this.#ring.length + 1); s <= second; s++) this.#ring[s % this.#ring.length] = 0
    this.#ringSecond = second
  }
}
