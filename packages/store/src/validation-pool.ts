import { availableParallelism } from 'node:os'
import type { Block } from '@weft/block'
import { Piscina } from 'piscina'
import { type EncodedBlock, encodeBlock, fromThread } from './block-encoding.js'

// Batches below this size are encoded inline: a trip to a worker and back costs more than a few blocks' hashing.
const inlineBelow = 32

/** The number of validation threads a store uses by default: one per core the process may use. */
export function defaultValidationThreads(): number {
  return availableParallelism()
}

/**
 * Runs the costly part of validation (hashing) and the encodings of a batch on worker threads,
 * in chunks spread over every thread; answers in the batch's order. With no threads, or for a
 * small batch, it runs inline. The writer stays on the main thread: one atomic batch at a time.
 */
export class ValidationPool {
  readonly threads: number
  // Started by the first batch that needs it: a store that only takes single blocks never pays for threads.
  #pool: Piscina | undefined
  #closed = false

  constructor(threads: number) {
    this.threads = threads
  }

  /** The encodings of `blocks`, in order. */
  async encode(blocks: readonly Block[]): Promise<EncodedBlock[]> {
    if (this.threads === 0 || this.#closed || blocks.length < inlineBelow) return blocks.map(encodeBlock)
    this.#pool ??= new Piscina({
      filename: new URL('./validation-worker.js', import.meta.url).href,
      minThreads: this.threads,
      maxThreads: this.threads,
      // Idle workers are let go after a while, and started again when bulk loads come back.
      idleTimeout: 30_000,
      // A worker holds one chunk of blocks at a time: small heaps keep a bulk load's memory low.
      resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 64 },
    })
    const pool = this.#pool
    const size = Math.ceil(blocks.length / this.threads)
    const chunks: Array<Promise<EncodedBlock[]>> = []
    for (let at = 0; at < blocks.length; at += size) chunks.push(pool.run(blocks.slice(at, at + size)) as Promise<EncodedBlock[]>)
    return (await Promise.all(chunks)).flat().map(fromThread)
  }

  /** Stops the worker threads, if any were started. */
  async close(): Promise<void> {
    this.#closed = true
    await this.#pool?.destroy()
  }
}
