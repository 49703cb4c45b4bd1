import { availableParallelism } from 'node:os'
import type { Block } from '@weft/block'
import { Piscina } from 'piscina'
import { type EncodedBlock, type EncodedText, encodeBlock, encodeBlockText, fromThread } from './block-encoding.js'
import { recordIndexOperations } from './index-operations.js'
import type { StoredPayload } from './validation-worker.js'

// Batches below this size are encoded inline: a trip to a worker and back costs more than a few blocks' hashing.
const inlineBelow = 32
// Items a worker takes at once. A chunk's blocks are all rebuilt in the worker's heap before the
// first is hashed, and live until the chunk is done: 128 of them (half a batch) outgrew its 4 MB
// young generation, so each scavenge copied and promoted most of the chunk. Chunks of 16 halved
// the workers' collection pauses and the fill's own memory peak fell 4-15 MiB (200,000-block fills of
// the scale bench; the insert rate moved less than from run to run).
const chunkLimit = 16

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

  /** The encodings of `blocks`, in order; with `index`, their index entries too. */
  async encode(blocks: readonly Block[], index = false): Promise<EncodedBlock[]> {
    if (!this.#parallel(blocks.length)) return blocks.map((block) => encodeBlock(block, index))
    return (await this.#spread<Block, EncodedBlock>(blocks, index, 'default')).map(fromThread)
  }

  /** The encodings of the blocks whose full-block JSON texts are `texts`, parsed on the threads too; in order. */
  async encodeTexts(texts: readonly Uint8Array[], index = false): Promise<EncodedText[]> {
    if (!this.#parallel(texts.length)) return texts.map((text) => encodeBlockText(text, index))
    return (await this.#spread<Uint8Array, EncodedText>(texts, index, 'encodeTextChunk')).map((encoded) =>
      'unreadable' in encoded ? encoded : fromThread(encoded),
    )
  }

  /** The packed index entries of stored blocks, in order: the catch-up's derivation, on the threads. */
  async indexStored(stored: readonly StoredPayload[]): Promise<Uint8Array[]> {
    if (!this.#parallel(stored.length))
      return stored.map(({ chain, height, hash, payloadJson }) => recordIndexOperations(chain, height, hash, payloadJson))
    return this.#spread<StoredPayload, Uint8Array>(stored, true, 'indexChunk')
  }

  #parallel(count: number): boolean {
    return this.threads > 0 && !this.#closed && count >= inlineBelow
  }

  // Runs the worker's function `name` on chunks of `items`, one chunk per thread; the answers in order.
  async #spread<T, R>(items: readonly T[], index: boolean, name: string): Promise<R[]> {
    if (this.#pool === undefined) {
      this.#pool = new Piscina({
        filename: new URL('./validation-worker.js', import.meta.url).href,
        // None kept: idle workers are let go after a while (piscina keeps `minThreads` for good), and
        // started again when bulk loads come back.
        minThreads: 0,
        maxThreads: this.threads,
        idleTimeout: 30_000,
        // A worker holds one chunk of blocks at a time, so its live data is small: small heaps keep a
        // bulk load's memory low at no measured cost in speed (an 8 MB young generation took 25-30 MB
        // more per worker). The old generation keeps room: 24 MB ran out under the test runner's loaders.
        resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 },
      })
      // A worker that fails while it runs a task rejects that task's caller. One that fails between
      // tasks (out of memory, say) is replaced by piscina, which then emits 'error' on the pool: with no
      // listener, that event would end the process. No caller is owed that error, so it is dropped.
      // Not reached by the tests: a worker cannot be made to fail between tasks from outside.
      /* c8 ignore next */
      this.#pool.on('error', () => undefined)
    }
    const pool = this.#pool
    const size = Math.min(chunkLimit, Math.ceil(items.length / this.threads))
    const chunks: Array<Promise<R[]>> = []
    for (let at = 0; at < items.length; at += size)
      chunks.push(pool.run({ items: items.slice(at, at + size), index }, { name }) as Promise<R[]>)
    return (await Promise.all(chunks)).flat()
  }

  /** Stops the worker threads, if any were started. */
  async close(): Promise<void> {
    this.#closed = true
    await this.#pool?.destroy()
  }
}
