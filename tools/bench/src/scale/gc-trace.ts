// The garbage collections of a process run with `--trace-gc`: V8 prints one line to stdout per
// collection of each isolate (the main thread's and every worker thread's), with the time the
// thread stood still for it, and for a mark-compact the incremental marking steps before it.
//   [7092:0xfd50fe0]  39 ms: Scavenge 4.6 (4.7) -> 4.1 (5.7) MB, 0.63 / 0.00 ms  (average mu = ...
//   [7092:0x7fef6c000f00]  330 ms: Mark-Compact 8.5 (12.5) -> 5.8 (12.2) MB, 0.81 / 0.00 ms  (+ 0.2 ms in 4 steps since start of marking, ...

/** Collections seen, and the time their isolates' threads spent in them. */
export interface GcPauses {
  readonly collections: number
  /** Pauses and incremental marking steps, every isolate, in seconds. */
  readonly pauseSeconds: number
  /** Isolates seen: the main thread and each worker thread that collected. */
  readonly isolates: number
}

const collectionLine = /^\[\d+:(0x[0-9a-f]+)\]\s+[\d.]+ ms: .*? MB, ([\d.]+) \/ [\d.]+ ms(?:\s+\(\+ ([\d.]+) ms in \d+ steps)?/

/** Adds up `--trace-gc` lines; `add` answers false for a line that is not a collection. */
export class GcTrace {
  #collections = 0
  #milliseconds = 0
  readonly #isolates = new Set<string>()

  add(line: string): boolean {
    const match = collectionLine.exec(line)
    if (match === null) return false
    this.#collections++
    this.#milliseconds += Number(match[2]) + Number(match[3] ?? 0)
    this.#isolates.add(match[1]!)
    return true
  }

  totals(): GcPauses {
    return { collections: this.#collections, pauseSeconds: this.#milliseconds / 1000, isolates: this.#isolates.size }
  }
}
