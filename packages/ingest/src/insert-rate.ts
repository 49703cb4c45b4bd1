// The blocks-per-second figure is the inserts of the last few whole seconds, averaged.
const rateSeconds = 10

/** Counts the blocks written (the status's `inserted`) and their rate over the last seconds. */
export class InsertRate {
  /** Blocks written since ingest started. */
  total = 0
  // Inserts per second for the last `rateSeconds` seconds, by second number modulo the ring size.
  readonly #ring = new Array<number>(rateSeconds + 1).fill(0)
  #ringSecond = 0

  /** Counts one block written at `now`. */
  count(now = Date.now()): void {
    this.total += 1
    const second = Math.floor(now / 1000)
    this.#advance(second)
    this.#ring[second % this.#ring.length]! += 1
  }

  /** Blocks written per second, averaged over the last whole seconds. */
  blocksPerSecond(now = Date.now()): number {
    const second = Math.floor(now / 1000)
    this.#advance(second)
    let sum = 0
    for (let back = 1; back <= rateSeconds; back++) sum += this.#ring[(second - back) % this.#ring.length]!
    return sum / rateSeconds
  }

  // Clears the seconds that passed without inserts since the last one counted.
  #advance(second: number): void {
    if (second <= this.#ringSecond) return
    for (let s = Math.max(this.#ringSecond + 1, second - this.#ring.length + 1); s <= second; s++) this.#ring[s % this.#ring.length] = 0
    this.#ringSecond = second
  }
}
